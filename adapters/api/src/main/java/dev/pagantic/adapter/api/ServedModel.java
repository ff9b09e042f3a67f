package dev.pagantic.adapter.api;

import dev.pagantic.orchestrate.facade.Orchestrator;
import java.util.Objects;
import java.util.Optional;

/**
 * A model the server serves besides its default one, as its loader opened it
 * ({@link ApiServer.Builder#model(String, java.util.function.Supplier)}): the orchestrator its requests run on, what
 * computes its embeddings, and what the server closes when it closes.
 *
 * @param orchestrator the orchestrator the model's requests run on
 * @param embeddings   what computes the model's {@code /v1/embeddings}; empty for none (then that endpoint answers 404
 *                     for this model)
 * @param resources    what the loader opened (the orchestrator, the engine), closed with the server
 */
public record ServedModel(Orchestrator orchestrator, Optional<TextEmbedder> embeddings, AutoCloseable resources) {

    /** Checks that nothing is null. */
    public ServedModel {
        Objects.requireNonNull(orchestrator, "orchestrator");
        Objects.requireNonNull(embeddings, "embeddings");
        Objects.requireNonNull(resources, "resources");
    }
}
