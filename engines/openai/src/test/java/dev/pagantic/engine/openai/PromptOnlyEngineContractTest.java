package dev.pagantic.engine.openai;

/**
 * The Engine contract kit on the engine in {@link ConstraintMode#PROMPT_ONLY} mode: grammar and schema are not
 * declared, so the kit also checks that requests needing them are refused.
 */
class PromptOnlyEngineContractTest extends OpenAiCompatibleEngineContractTest {

    @Override
    ConstraintMode mode() {
        return ConstraintMode.PROMPT_ONLY;
    }
}
