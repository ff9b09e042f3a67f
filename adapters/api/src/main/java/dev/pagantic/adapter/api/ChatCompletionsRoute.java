package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.LOG;

import dev.pagantic.core.Cancellation;
import dev.pagantic.core.TokenUsage;
import dev.pagantic.inference.StreamHandler;
import dev.pagantic.orchestrate.agent.AgentEventListener;
import dev.pagantic.orchestrate.facade.ExecutionHints;
import dev.pagantic.orchestrate.facade.SystemRequest;
import dev.pagantic.orchestrate.facade.SystemResponse;
import io.javalin.http.Context;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * {@code POST /v1/chat/completions}: OpenAI's chat completions, whole or streamed ({@link ChatStream}); {@code n}
 * choices are runs of the request one after the other on the slot it holds, so that each run after the first reuses
 * the prompt the engine has cached.
 */
final class ChatCompletionsRoute {

    private final Admission admission;
    private final Inference inference;
    private final RequestIds ids;
    private final ServedModels models;
    private final ChatCompletionRequestMapper requestMapper;
    private final ChatCompletionResponseMapper responseMapper = new ChatCompletionResponseMapper();
    private final InstantSource clock;

    ChatCompletionsRoute(Admission admission, Inference inference, RequestIds ids, ServedModels models,
                         ApiLimits limits, InstantSource clock) {
        this.admission = admission;
        this.inference = inference;
        this.ids = ids;
        this.models = models;
        this.requestMapper = new ChatCompletionRequestMapper(limits);
        this.clock = clock;
    }

    void handle(Context ctx) {
        admission.serve(ctx, Dialect.OPENAI, raw -> {
            JsonNode body = RequestBodies.parse(raw);
            String requestId = ids.reserve(RequestIds.wanted(ctx));
            ChatCompletionCall call;
            ServedModels.Target model;
            try {
                ChatCompletionCall mapped = requestMapper.map(body, requestId, RequestIds.traceId(ctx));
                call = new ChatCompletionCall(mapped.request().toBuilder()
                        .traceContext(RequestIds.traceContext(ctx)).build(), mapped.model(), mapped.stream(),
                        mapped.includeUsage(), mapped.structured(), mapped.choices(), mapped.seed());
                model = models.answering(body);
            } catch (RuntimeException refused) {
                ids.release(requestId);
                throw refused;
            }
            return new Admission.Admitted(() -> run(ctx, call, model), () -> ids.release(requestId));
        });
    }

    private void run(Context ctx, ChatCompletionCall call, ServedModels.Target model) {
        String requestId = call.request().requestId();
        ChatCompletionResponseMapper.Envelope envelope = ChatCompletionResponseMapper.envelope(requestId,
                clock.instant().getEpochSecond(), model.name());
        ctx.res().setHeader(RequestIds.HEADER, requestId);
        Cancellation cancellation = new Cancellation();
        ChatStream stream = call.stream()
                ? new ChatStream(ctx.res(), cancellation, responseMapper, envelope, !call.structured()) : null;
        List<SystemResponse> choices = new ArrayList<>();
        TokenUsage usage = TokenUsage.ZERO;
        for (int index = 0; index < call.choices(); index++) {
            SystemResponse response = inference.execute(model.orchestrator(), choice(call, index),
                    stream == null ? StreamHandler.NOOP : stream, AgentEventListener.NOOP, cancellation);
            if (stream != null && stream.clientGone()) {
                LOG.info("request {} ended {} after its client disconnected", requestId,
                        response.error().map(error -> error.code().name()).orElse("normally"));
                return;
            }
            if (response.error().isPresent()) {
                if (stream != null && stream.started()) {
                    stream.fail(OpenAiError.of(response.error().get()));
                } else {
                    Responses.sendError(ctx, Dialect.OPENAI, response.error().get());
                }
                return;
            }
            usage = usage.plus(response.tokenUsage());
            choices.add(response);
            if (stream != null) {
                stream.completeChoice(response, call.structured());
            }
        }
        if (stream == null) {
            Responses.send(ctx, 200, responseMapper.completion(envelope, choices, call.structured()));
        } else {
            stream.end(usage, call.includeUsage());
        }
    }

    /**
     * The request of choice {@code index}: the first is the request itself; each later one has a request id of its
     * own ({@code <id>.<index>}, so that timelines never merge) and, when the client gave a seed, the seed plus the
     * index, so that the choices differ and the same seed still gives the same choices.
     */
    private SystemRequest choice(ChatCompletionCall call, int index) {
        SystemRequest request = inference.withDefaultTimeout(call.request());
        if (index == 0) {
            return request;
        }
        ExecutionHints hints = request.hints();
        ExecutionHints.Builder varied = hints.toBuilder();
        call.seed().ifPresent(seed -> varied.seed(seed + index));
        return request.toBuilder().requestId(request.requestId() + "." + index).hints(varied.build()).build();
    }
}
