package dev.pagantic.inference;

/**
 * What an engine can do beyond plain text completion, declared in {@link ModelInfo#capabilities()} so that
 * orchestration asks only for what the engine supports (for example, derive a grammar from a schema only when the
 * engine honours grammars).
 */
public enum Capability {
    /** Honours {@link Request#grammar()}: output is constrained by a GBNF grammar at the decoder. */
    GRAMMAR,
    /** Honours {@link Request#schema()} natively (JSON-schema constrained decoding or a server-side response format). */
    SCHEMA,
    /** Passes {@link Request#tools()} to the model and returns its tool calls. */
    TOOLS,
    /** Delivers output incrementally to a {@link StreamHandler} while generating. */
    STREAMING,
    /**
     * Honours {@link InferenceSettings#seed()}: the same request with the same seed gives the same output (on the same
     * model and hardware), and the seed is passed to the backend.
     */
    SEED,
    /** Honours {@link InferenceSettings#stop()}: generation ends before the first stop string it would produce. */
    STOP,
    /** Computes embeddings. */
    EMBEDDINGS,
    /** {@link Engine#tokenCounter()} uses the model's own tokenizer rather than an estimate. */
    TOKEN_COUNTING
}
