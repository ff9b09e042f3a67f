package dev.pagantic.orchestrate.facade;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.Message;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Role;
import dev.pagantic.memory.ConversationBuffer;
import dev.pagantic.orchestrate.agent.AgentLoop;
import dev.pagantic.orchestrate.agent.AgentTurn;
import dev.pagantic.orchestrate.loop.LoopSettings;
import java.util.List;

/**
 * {@link Mode#CHAT}: an {@link AgentLoop} turn. With a session id, the loop of that session is kept (and its history
 * persisted in the conversation store) and the request's messages are appended to it; without one, the request's
 * messages are the whole history (the messages after the last assistant message are the new turn) and nothing is kept.
 * Either way the history is cut to fit the model's context window first ({@link HistoryBudget}).
 * The response carries the content, the tool calls made, the usage, and caller-tool calls handed back.
 */
final class ChatMode implements ModeRunner {

    private final LoopSettings settings;
    private final Sessions sessions;
    private final HistoryBudget budget;

    ChatMode(LoopSettings settings, Sessions sessions) {
        this.settings = settings;
        this.sessions = sessions;
        this.budget = new HistoryBudget(settings);
    }

    @Override
    public SystemResponse run(RequestCall call) {
        SystemRequest req = call.request();
        if (req.hasSession()) {
            Sessions.Live session = sessions.acquire(req.sessionId());
            synchronized (session) {
                session.forget(budget.fit(req.hints().settings(), session.memory, req.messages()));
            }
            AgentTurn turn = session.loop.chatTurn(call.ctx(), req.messages(), req.hints().settings(), call.options());
            sessions.persist(req.sessionId(), session);
            return response(call, turn);
        }
        int lastAssistant = lastIndexOf(req.messages(), Role.ASSISTANT);
        List<Message> history = req.messages().subList(0, lastAssistant + 1);
        List<Message> turnMessages = req.messages().subList(lastAssistant + 1, req.messages().size());
        if (turnMessages.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID,
                    "a chat request must end with a message to answer, not an assistant message");
        }
        ConversationBuffer memory = new ConversationBuffer();
        if (lastIndexOf(req.messages(), Role.SYSTEM) < 0) {
            settings.systemMessage().ifPresent(memory::append);
        }
        memory.appendAll(history);
        budget.fit(req.hints().settings(), memory, turnMessages);
        AgentLoop loop = loop(settings, memory);
        return response(call, loop.chatTurn(call.ctx(), turnMessages, req.hints().settings(), call.options()));
    }

    /** A loop on the orchestrator's settings keeping its history in the memory (a session's, or a request's). */
    static AgentLoop loop(LoopSettings settings, ConversationBuffer memory) {
        return AgentLoop.builder().loopSettings(settings).memory(memory).build();
    }

    private static SystemResponse response(RequestCall call, AgentTurn turn) {
        SystemResponse.Builder response = call.response()
                .content(turn.result().content())
                .tokenUsage(turn.result().usage());
        turn.toolExecutions().forEach(e -> response.toolCallMade(ToolCallRecord.from(e)));
        if (turn.hasPendingCalls()) {
            turn.pendingCalls().forEach(response::toolCallRequested);
        } else {
            response.finishReason(turn.result().finishReason());
        }
        return response.build();
    }

    static int lastIndexOf(List<Message> messages, Role role) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            if (messages.get(i).role() == role) {
                return i;
            }
        }
        return -1;
    }

    /** The content of the request's last user message; {@code CONFIG_INVALID} when it has none. */
    static String lastUserMessage(SystemRequest req) {
        int index = lastIndexOf(req.messages(), Role.USER);
        if (index < 0) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "mode '" + req.mode().wireName()
                    + "' needs a user message to answer");
        }
        return req.messages().get(index).content();
    }
}
