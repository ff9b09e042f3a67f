package dev.pagantic.tool;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The deterministic hash of a tool call's arguments carried by {@link ToolStartEvent#argsHash()}: the lower-case hex
 * SHA-256 of the arguments' canonical JSON, in which the keys of every object are sorted (by {@link String} order)
 * and there is no whitespace. Two calls with the same arguments have the same hash whatever the order in which the
 * model wrote the keys, so repeated calls can be detected. Numbers are written as Jackson writes the Java value:
 * {@code 1} and {@code 1.0} hash differently.
 */
public final class ArgsHash {

    private ArgsHash() {
    }

    /** The SHA-256 hex of the canonical JSON of the arguments. */
    public static String of(Map<String, ?> arguments) {
        byte[] digest = sha256().digest(canonicalJson(arguments).getBytes(StandardCharsets.UTF_8));
        StringBuilder hex = new StringBuilder(digest.length * 2);
        for (byte b : digest) {
            hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return hex.toString();
    }

    /** The canonical JSON of the arguments: object keys sorted at every depth, no whitespace. */
    public static String canonicalJson(Map<String, ?> arguments) {
        return Json.DEFAULT.writeValueAsString(sorted(arguments));
    }

    private static Object sorted(Object value) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new TreeMap<>();
            map.forEach((key, item) -> copy.put(String.valueOf(key), sorted(item)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            list.forEach(item -> copy.add(sorted(item)));
            return copy;
        }
        return value;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform provides SHA-256", e);
        }
    }
}
