package dev.pagantic.adapter.api;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An OpenAI embeddings request ({@code POST /v1/embeddings}) and its response document; the one place that knows that
 * vocabulary.
 *
 * <ul>
 *   <li>{@code input}: a string or an array of up to {@value #MAX_INPUTS} strings, none empty, each within the
 *       message length limit. Token arrays (OpenAI's pre-tokenized input) are refused: the server does not expose
 *       its tokenizer's ids.</li>
 *   <li>{@code encoding_format}: {@code float} (the default) or {@code base64}, little-endian float32 as OpenAI
 *       sends them (the official SDKs ask for base64 and decode it).</li>
 *   <li>{@code dimensions} is refused: the model's dimension is fixed. {@code user} is ignored.</li>
 * </ul>
 *
 * @param inputs the texts to embed
 * @param base64 whether vectors are sent as base64
 */
record EmbeddingsCall(List<String> inputs, boolean base64) {

    /** The most inputs one request may embed, as OpenAI allows. */
    static final int MAX_INPUTS = 2048;
    private static final JsonMapper JSON = JsonMapper.builder().build();

    EmbeddingsCall {
        inputs = List.copyOf(inputs);
    }

    /**
     * The call of a request body.
     *
     * @throws ApiFailure 400 naming the field at fault
     */
    static EmbeddingsCall of(JsonNode body, ApiLimits limits) {
        Objects.requireNonNull(limits, "limits");
        if (!body.isObject()) {
            throw ApiFailure.badRequest("the request body must be a JSON object");
        }
        JsonNode input = body.path("input");
        if (input.isMissingNode() || input.isNull()) {
            throw ApiFailure.badParam("input", "missing_required_parameter", "'input' is required");
        }
        List<String> inputs = new ArrayList<>();
        if (input.isString()) {
            inputs.add(input.stringValue());
        } else if (input.isArray()) {
            if (input.size() > MAX_INPUTS) {
                throw ApiFailure.badParam("input", "array_above_max_length", "'input' holds at most " + MAX_INPUTS
                        + " strings");
            }
            for (int i = 0; i < input.size(); i++) {
                if (!input.get(i).isString()) {
                    throw ApiFailure.badParam("input[" + i + "]", "invalid_type", "'input' must be a string or an "
                            + "array of strings (token arrays are not supported)");
                }
                inputs.add(input.get(i).stringValue());
            }
        } else {
            throw ApiFailure.badParam("input", "invalid_type", "'input' must be a string or an array of strings");
        }
        if (inputs.isEmpty()) {
            throw ApiFailure.badParam("input", "empty_array", "'input' must hold at least one string");
        }
        for (int i = 0; i < inputs.size(); i++) {
            String text = inputs.get(i);
            if (text.isEmpty()) {
                throw ApiFailure.badParam("input", "invalid_value", "input " + i + " is empty");
            }
            if (text.length() > limits.maxMessageChars()) {
                throw ApiFailure.badParam("input", "string_above_max_length", "input " + i + " is too long: "
                        + text.length() + " characters (the limit is " + limits.maxMessageChars() + ")");
            }
        }
        JsonNode format = body.path("encoding_format");
        boolean base64 = false;
        if (!format.isMissingNode() && !format.isNull()) {
            if (!format.isString() || !(format.stringValue().equals("float") || format.stringValue().equals("base64"))) {
                throw ApiFailure.badParam("encoding_format", "invalid_value", "'encoding_format' must be 'float' or "
                        + "'base64'");
            }
            base64 = format.stringValue().equals("base64");
        }
        if (body.hasNonNull("dimensions")) {
            throw ApiFailure.badParam("dimensions", "unsupported_parameter", "'dimensions' is not supported: the "
                    + "model's embeddings have a fixed dimension");
        }
        return new EmbeddingsCall(inputs, base64);
    }

    /** OpenAI's {@code list} of {@code embedding} objects, with the usage. */
    String response(String model, List<float[]> vectors, int promptTokens) {
        ObjectNode root = JSON.createObjectNode().put("object", "list");
        ArrayNode data = root.putArray("data");
        for (int i = 0; i < vectors.size(); i++) {
            ObjectNode item = data.addObject().put("object", "embedding").put("index", i);
            float[] vector = vectors.get(i);
            if (base64) {
                ByteBuffer bytes = ByteBuffer.allocate(vector.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
                for (float component : vector) {
                    bytes.putFloat(component);
                }
                item.put("embedding", Base64.getEncoder().encodeToString(bytes.array()));
            } else {
                ArrayNode components = item.putArray("embedding");
                for (float component : vector) {
                    components.add(component);
                }
            }
        }
        root.put("model", model);
        root.putObject("usage").put("prompt_tokens", promptTokens).put("total_tokens", promptTokens);
        return JSON.writeValueAsString(root);
    }
}
