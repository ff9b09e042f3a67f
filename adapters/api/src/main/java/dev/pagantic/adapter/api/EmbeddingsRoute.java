package dev.pagantic.adapter.api;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.Cancellation;
import dev.pagantic.core.ErrorCode;
import io.javalin.http.Context;
import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/** {@code POST /v1/embeddings}: OpenAI's embeddings of a string or an array of strings, as floats or base64. */
final class EmbeddingsRoute {

    private final Admission admission;
    private final Inference inference;
    private final ServedModels models;
    private final ApiLimits limits;

    EmbeddingsRoute(Admission admission, Inference inference, ServedModels models, ApiLimits limits) {
        this.admission = admission;
        this.inference = inference;
        this.models = models;
        this.limits = limits;
    }

    void handle(Context ctx) {
        admission.serve(ctx, Dialect.OPENAI, raw -> {
            JsonNode body = RequestBodies.parse(raw);
            EmbeddingsCall call = EmbeddingsCall.of(body, limits);
            ServedModels.Target model = models.answering(body);
            TextEmbedder computing = model.embedder();
            if (computing == null) {
                throw ApiFailure.of(HttpStatuses.NOT_FOUND, ErrorCode.CONFIG_UNSUPPORTED_CAPABILITY,
                        "model_not_found", "model '" + model.name() + "' does not compute embeddings on this server");
            }
            return Admission.Admitted.of(() -> Responses.send(ctx, 200, embed(computing, call, model.name())));
        });
    }

    /** The response document; its {@code usage} estimates a token per four characters (the embedder tells none). */
    private String embed(TextEmbedder computing, EmbeddingsCall call, String model) {
        Cancellation cancellation = new Cancellation();
        return inference.tracked(cancellation, () -> {
            CallContext context = inference.context(cancellation);
            List<float[]> vectors = new ArrayList<>();
            int tokens = 0;
            for (String input : call.inputs()) {
                vectors.add(computing.embed(context, input));
                tokens += Math.max(1, input.length() / 4);
            }
            return call.response(model, vectors, tokens);
        });
    }
}
