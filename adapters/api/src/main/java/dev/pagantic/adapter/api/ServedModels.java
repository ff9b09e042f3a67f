package dev.pagantic.adapter.api;

import static dev.pagantic.adapter.api.Responses.JSON;
import static dev.pagantic.adapter.api.Responses.send;
import static dev.pagantic.adapter.api.Responses.shorten;

import dev.pagantic.core.ErrorCode;
import io.javalin.http.Context;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The one model served and its aliases: which name a request is answered with, and the routes
 * {@code GET /v1/models} and {@code GET /v1/models/{id}}.
 */
final class ServedModels {

    private final String modelName;
    private final Set<String> aliases;
    private volatile long startedAt;

    ServedModels(String modelName, Set<String> aliases) {
        this.modelName = modelName;
        this.aliases = Set.copyOf(aliases);
    }

    /** The {@code created} time of the listed models: when the server started, in epoch seconds. */
    void startedAt(long epochSecond) {
        this.startedAt = epochSecond;
    }

    /** The served model's own name. */
    String name() {
        return modelName;
    }

    /**
     * The model name a request is answered with: the served model when it names none (or a blank one), it, or one of
     * its aliases; otherwise OpenAI's 404 {@code model_not_found}.
     */
    String answering(JsonNode body) {
        JsonNode model = body.path("model");
        if (model.isMissingNode() || model.isNull()) {
            return modelName;
        }
        if (!model.isString()) {
            throw ApiFailure.badParam("model", "invalid_type", "'model' must be a string");
        }
        String name = model.stringValue();
        if (name.isBlank()) {
            return modelName;
        }
        if (serves(name)) {
            return name;
        }
        throw ApiFailure.of(HttpStatuses.NOT_FOUND, ErrorCode.CONFIG_INVALID, "model_not_found",
                "The model '" + shorten(name) + "' does not exist: this server serves '" + modelName + "'"
                        + (aliases.isEmpty() ? "" : " (also as " + String.join(", ", new TreeSet<>(aliases)) + ")"));
    }

    /** {@code GET /v1/models}: OpenAI's model list, with the one model served and its aliases. */
    void list(Context ctx) {
        ObjectNode root = JSON.createObjectNode().put("object", "list");
        ArrayNode data = root.putArray("data");
        data.add(modelNode(modelName));
        new TreeSet<>(aliases).forEach(alias -> data.add(modelNode(alias)));
        send(ctx, 200, JSON.writeValueAsString(root));
    }

    /** {@code GET /v1/models/{id}}: the served model, or 404. */
    void one(Context ctx) {
        String id = ctx.pathParam("id");
        if (serves(id)) {
            send(ctx, 200, JSON.writeValueAsString(modelNode(id)));
        } else {
            send(ctx, HttpStatuses.NOT_FOUND, OpenAiError.document(HttpStatuses.NOT_FOUND, "model_not_found", null,
                    "The model '" + shorten(id) + "' does not exist: this server serves '" + modelName + "'",
                    ErrorCode.CONFIG_INVALID));
        }
    }

    private boolean serves(String name) {
        return name.equals(modelName) || aliases.contains(name);
    }

    private ObjectNode modelNode(String id) {
        return JSON.createObjectNode().put("id", id).put("object", "model").put("created", startedAt)
                .put("owned_by", "pagantic");
    }
}
