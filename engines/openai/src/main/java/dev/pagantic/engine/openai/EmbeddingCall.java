package dev.pagantic.engine.openai;

import dev.pagantic.core.CallContext;
import dev.pagantic.core.PaganticException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * One {@code POST /v1/embeddings} call: the inputs in one batch, asked for as base64 (little-endian float32, a quarter
 * of the JSON numbers' size, as the official SDKs ask), read back as base64 or as float arrays, for a server that
 * ignores {@code encoding_format}. An answer that does not hold one finite vector of one dimension per input, by
 * {@code index}, is {@code INFERENCE_MALFORMED_RESPONSE}; failures on the wire are mapped as for chat
 * ({@link HttpCall}, {@link HttpFailures}).
 */
final class EmbeddingCall {

    /** What every embeddings call of one engine shares. */
    record Wiring(HttpCall.Wiring http, URI endpoint, String model, JsonMapper json, ChatResponseDecoder decoder,
                  HttpFailures failures) {
    }

    private EmbeddingCall() {
    }

    /** The embeddings of the inputs, in their order. */
    static float[][] run(Wiring wiring, CallContext context, List<String> inputs) {
        ObjectNode body = wiring.json().createObjectNode().put("model", wiring.model())
                .put("encoding_format", "base64");
        inputs.forEach(body.putArray("input")::add);
        byte[] bytes = wiring.json().writeValueAsBytes(body);
        return new HttpCall(wiring.http(), wiring.failures(), context).post(wiring.endpoint(), bytes,
                "application/json", response -> {
                    String text = new String(response.body().readAllBytes(), StandardCharsets.UTF_8);
                    context.throwIfDone();
                    return vectors(wiring, wiring.decoder().parseObject(text, "the answer"), inputs.size());
                });
    }

    private static float[][] vectors(Wiring wiring, JsonNode root, int count) {
        wiring.decoder().rejectInBandError(root);
        JsonNode data = root.path("data");
        if (!data.isArray() || data.size() != count) {
            throw malformed(wiring, "the answer holds " + (data.isArray() ? data.size() : "no") + " embeddings for "
                    + count + " inputs");
        }
        float[][] vectors = new float[count][];
        int dimension = -1;
        for (JsonNode item : data) {
            JsonNode index = item.path("index");
            if (!index.canConvertToInt() || index.intValue() < 0 || index.intValue() >= count
                    || vectors[index.intValue()] != null) {
                throw malformed(wiring, "an embedding has a missing, repeated or out-of-range index: " + index);
            }
            float[] vector = vector(wiring, item.path("embedding"));
            if (vector.length == 0 || (dimension >= 0 && vector.length != dimension)) {
                throw malformed(wiring, "the embeddings are empty or differ in dimension");
            }
            dimension = vector.length;
            vectors[index.intValue()] = vector;
        }
        return vectors;
    }

    /** A vector as base64 of little-endian float32 or as an array of numbers; every component finite. */
    private static float[] vector(Wiring wiring, JsonNode embedding) {
        float[] vector;
        if (embedding.isString()) {
            byte[] bytes;
            try {
                bytes = Base64.getDecoder().decode(embedding.stringValue());
            } catch (IllegalArgumentException notBase64) {
                throw malformed(wiring, "an embedding is not base64");
            }
            if (bytes.length % Float.BYTES != 0) {
                throw malformed(wiring, "a base64 embedding of " + bytes.length + " bytes is no float32 vector");
            }
            vector = new float[bytes.length / Float.BYTES];
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(vector);
        } else if (embedding.isArray()) {
            vector = new float[embedding.size()];
            for (int i = 0; i < vector.length; i++) {
                JsonNode component = embedding.get(i);
                if (!component.isNumber()) {
                    throw malformed(wiring, "an embedding holds a component that is not a number");
                }
                vector[i] = component.floatValue();
            }
        } else {
            throw malformed(wiring, "an embedding is neither base64 nor an array of numbers");
        }
        for (float component : vector) {
            if (!Float.isFinite(component)) {
                throw malformed(wiring, "an embedding holds a component that is not finite");
            }
        }
        return vector;
    }

    private static PaganticException malformed(Wiring wiring, String what) {
        return wiring.failures().malformed(what, null);
    }
}
