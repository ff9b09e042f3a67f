package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.JSON;
import static dev.pagantic.adapter.api.Responses.LOG;
import static dev.pagantic.adapter.api.Responses.send;
import static dev.pagantic.adapter.api.Responses.shorten;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.orchestrate.facade.Orchestrator;
import io.javalin.http.Context;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The models served: which one answers a request, and the routes {@code GET /v1/models} and
 * {@code GET /v1/models/{id}}. The default model (with its aliases) answers requests that name no model; the others
 * are loaded when a request first names them, so that a server offering several models starts as fast as with one
 * and holds in memory only those asked for. The first request naming such a model waits for its load (outside the
 * request queue: the other models' requests go on). A model that cannot be loaded (a file the bundled llama.cpp
 * cannot run, say) is answered 400 with the loader's message, to that request and every later one: the failure is
 * kept, as retrying would fail the same way at the cost of a load; a restart retries.
 */
final class ServedModels implements AutoCloseable {

    /** The model a request is answered by: the name it echoes, its orchestrator and embeddings. */
    record Target(String name, Orchestrator orchestrator, @Nullable TextEmbedder embedder) {
    }

    private final String modelName;
    private final Set<String> aliases;
    private final Orchestrator orchestrator;
    private final @Nullable TextEmbedder embedder;
    private final Map<String, Loadable> others;
    private volatile long startedAt;

    /**
     * @param others the models besides the default one, by name, with their loaders (names distinct from the default
     *               model's and its aliases)
     */
    ServedModels(String modelName, Set<String> aliases, Orchestrator orchestrator, @Nullable TextEmbedder embedder,
                 Map<String, Supplier<ServedModel>> others) {
        this.modelName = modelName;
        this.aliases = Set.copyOf(aliases);
        this.orchestrator = orchestrator;
        this.embedder = embedder;
        Map<String, Loadable> loadable = new LinkedHashMap<>();
        others.forEach((name, loader) -> loadable.put(name, new Loadable(name, loader)));
        this.others = Map.copyOf(loadable);
    }

    /** The {@code created} time of the listed models: when the server started, in epoch seconds. */
    void startedAt(long epochSecond) {
        this.startedAt = epochSecond;
    }

    /** The default model's own name. */
    String name() {
        return modelName;
    }

    /** The default model, which answers requests that name none (the native endpoint's, for one). */
    Target defaultModel() {
        return new Target(modelName, orchestrator, embedder);
    }

    /**
     * The model a request is answered by: the default one when it names none (or a blank one) or names it or one of
     * its aliases; another served model by its name, loaded on first use; otherwise OpenAI's 404
     * {@code model_not_found}.
     *
     * @throws ApiFailure 404 for a model not served, 400 for a served model that cannot be loaded
     */
    Target answering(JsonNode body) {
        JsonNode model = body.path("model");
        if (model.isMissingNode() || model.isNull()) {
            return defaultModel();
        }
        if (!model.isString()) {
            throw ApiFailure.badParam("model", "invalid_type", "'model' must be a string");
        }
        String name = model.stringValue();
        if (name.isBlank()) {
            return defaultModel();
        }
        if (name.equals(modelName) || aliases.contains(name)) {
            return new Target(name, orchestrator, embedder);
        }
        Loadable other = others.get(name);
        if (other == null) {
            throw ApiFailure.of(HttpStatuses.NOT_FOUND, ErrorCode.CONFIG_INVALID, "model_not_found",
                    "The model '" + shorten(name) + "' does not exist: this server serves " + servedNames());
        }
        return other.target();
    }

    /** {@code GET /v1/models}: OpenAI's model list: the default model, its aliases and the other models. */
    void list(Context ctx) {
        ObjectNode root = JSON.createObjectNode().put("object", "list");
        ArrayNode data = root.putArray("data");
        data.add(modelNode(modelName));
        new TreeSet<>(aliases).forEach(alias -> data.add(modelNode(alias)));
        new TreeSet<>(others.keySet()).forEach(name -> data.add(modelNode(name)));
        send(ctx, 200, JSON.writeValueAsString(root));
    }

    /** {@code GET /v1/models/{id}}: a served model, or 404. */
    void one(Context ctx) {
        String id = ctx.pathParam("id");
        if (id.equals(modelName) || aliases.contains(id) || others.containsKey(id)) {
            send(ctx, 200, JSON.writeValueAsString(modelNode(id)));
        } else {
            send(ctx, HttpStatuses.NOT_FOUND, OpenAiError.document(HttpStatuses.NOT_FOUND, "model_not_found", null,
                    "The model '" + shorten(id) + "' does not exist: this server serves " + servedNames(),
                    ErrorCode.CONFIG_INVALID));
        }
    }

    /** Closes the models that were loaded; a request naming one afterwards is answered 503. */
    @Override
    public void close() {
        others.values().forEach(Loadable::close);
    }

    private String servedNames() {
        TreeSet<String> names = new TreeSet<>(aliases);
        StringBuilder served = new StringBuilder("'").append(modelName).append('\'');
        if (!names.isEmpty()) {
            served.append(" (also as ").append(String.join(", ", names)).append(')');
        }
        new TreeSet<>(others.keySet()).forEach(other -> served.append(", '").append(other).append('\''));
        return served.toString();
    }

    private ObjectNode modelNode(String id) {
        return JSON.createObjectNode().put("id", id).put("object", "model").put("created", startedAt)
                .put("owned_by", "pagantic");
    }

    /** A model loaded on first use: loaded once, its failure kept, closed with the server. */
    private static final class Loadable {
        private final String name;
        private final Supplier<ServedModel> loader;
        private @Nullable ServedModel loaded; // guarded by this
        private @Nullable ApiFailure failed; // guarded by this
        private boolean closed; // guarded by this

        Loadable(String name, Supplier<ServedModel> loader) {
            this.name = name;
            this.loader = loader;
        }

        synchronized Target target() {
            if (closed) {
                throw new ApiFailure(HttpStatuses.UNAVAILABLE, ErrorCode.INFERENCE_MODEL_UNAVAILABLE,
                        "the server is shutting down", Responses.RETRY_AFTER_SECONDS);
            }
            if (failed != null) {
                throw failed;
            }
            if (loaded == null) {
                loaded = load();
            }
            return new Target(name, loaded.orchestrator(), loaded.embeddings().orElse(null));
        }

        private ServedModel load() {
            LOG.info("loading model '{}' for its first request", name);
            try {
                return Objects.requireNonNull(loader.get(), "the loader returned no model");
            } catch (PaganticException refused) {
                failed = unavailable(refused.code(), refused.description());
            } catch (RuntimeException broken) {
                LOG.error("loading model '{}' failed", name, broken);
                failed = unavailable(ErrorCode.INFERENCE_MODEL_UNAVAILABLE, String.valueOf(broken.getMessage()));
            }
            LOG.warn("{}", failed.getMessage());
            throw failed;
        }

        private ApiFailure unavailable(ErrorCode code, String why) {
            return ApiFailure.of(HttpStatuses.BAD_REQUEST, code, "model_not_available",
                    "The model '" + name + "' cannot be served: " + why);
        }

        synchronized void close() {
            closed = true;
            if (loaded == null) {
                return;
            }
            try {
                loaded.resources().close();
            } catch (Exception failure) {
                LOG.warn("closing model '{}' failed", name, failure);
            }
        }
    }
}
