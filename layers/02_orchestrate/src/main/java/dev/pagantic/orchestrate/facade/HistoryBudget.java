package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.Message;
import dev.pagantic.core.Role;
import dev.pagantic.core.ToolDefinition;
import dev.pagantic.inference.InferenceSettings;
import dev.pagantic.inference.TokenCounter;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.orchestrate.loop.LoopSettings;
import dev.pagantic.tool.ToolRegistry;
import java.util.List;

/**
 * Keeps a chat within the model's context window, so that a conversation lasts beyond the turns that fill it. Before a
 * turn the history is cut, oldest exchanges first, until the history, the turn's new messages, the tool definitions and
 * the room for the reply fit the window. The cutting is the memory layer's eviction
 * ({@link ConversationBuffer#evictToTokenBudget}): system messages are pinned, and a tool call is never separated from
 * its results. Tokens are counted with the engine's own counter (exact for llama.cpp); an engine that does not know its
 * window (0) is left alone. The tool definitions are the orchestrator's, fixed when it is built, so they are counted
 * once (rendering each schema to count it cost a chat turn about 6% of its bytes, every turn).
 */
final class HistoryBudget {

    /**
     * Tokens kept free beyond what is counted: the chat template's framing of the prompt and of the tool definitions,
     * and retrieved context, which the loop adds to the turn after this check.
     */
    static final int MARGIN_TOKENS = 64;

    private final LoopSettings settings;
    private volatile int toolTokens = -1; // counted on first use; a race counts twice, to the same number

    HistoryBudget(LoopSettings settings) {
        this.settings = settings;
    }

    /**
     * Cuts the history in {@code memory} so that the turn fits the window.
     *
     * @param request  the request's inference settings, laid over the orchestrator's
     * @param memory   the history before the turn
     * @param turn     the messages the turn adds
     * @return the number of messages removed from the history
     */
    int fit(InferenceSettings request, ConversationBuffer memory, List<Message> turn) {
        int window = settings.engine().modelInfo().contextWindow();
        if (window <= 0) {
            return 0;
        }
        TokenCounter counter = settings.engine().tokenCounter();
        int tools = toolTokens(counter);
        int budget = Math.max(0, window - replyRoom(settings.inference().overrideWith(request).maxTokens(), window)
                - counter.count(turn) - tools - MARGIN_TOKENS);
        int removed = memory.evictToTokenBudget(budget, counter).size();
        if (counter.count(memory.messages()) <= budget) {
            return removed;
        }
        // The newest exchange alone is over the budget (the eviction keeps it): keep only the system prompt.
        List<Message> system = memory.messages().stream().filter(m -> m.role() == Role.SYSTEM).toList();
        removed += memory.size() - system.size();
        memory.clear();
        memory.appendAll(system);
        return removed;
    }

    /**
     * The room kept for the reply: its token limit, at most half the window. A larger limit (the default 2048 on a
     * 2048-token model) would leave no room for any history; the engine stops a reply at the window's end anyway.
     */
    static int replyRoom(int maxTokens, int window) {
        int asked = maxTokens > 0 ? maxTokens : LoopSettings.DEFAULT_MAX_TOKENS;
        return Math.min(asked, window / 2);
    }

    private int toolTokens(TokenCounter counter) {
        int counted = toolTokens;
        if (counted < 0) {
            counted = 0;
            for (ToolDefinition definition : settings.tools().map(ToolRegistry::definitions).orElse(List.of())) {
                counted += counter.count(definition.name()) + counter.count(definition.description())
                        + counter.count(definition.parameters().toJsonSchema().toString());
            }
            toolTokens = counted;
        }
        return counted;
    }
}
