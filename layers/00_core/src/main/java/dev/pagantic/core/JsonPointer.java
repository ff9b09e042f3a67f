package dev.pagantic.core;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Local references ({@code #} and {@code #/json/pointer}, RFC 6901 in a URI fragment) into a JSON document. */
final class JsonPointer {

    private JsonPointer() {
    }

    /** Whether the reference is local: {@code #} or {@code #/...}. */
    static boolean isLocal(String reference) {
        return reference.equals("#") || reference.startsWith("#/");
    }

    /** The value a local reference points at, or empty when it is not local or points at nothing. */
    static Optional<Object> resolve(Object document, String reference) {
        if (!isLocal(reference)) {
            return Optional.empty();
        }
        String fragment;
        try {
            fragment = URLDecoder.decode(reference.substring(1).replace("+", "%2B"), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEscape) {
            return Optional.empty();
        }
        Object node = document;
        if (fragment.isEmpty()) {
            return Optional.of(node);
        }
        for (String token : fragment.substring(1).split("/", -1)) {
            String name = token.replace("~1", "/").replace("~0", "~");
            if (node instanceof Map<?, ?> map && map.containsKey(name)) {
                node = map.get(name);
            } else if (node instanceof List<?> list && isIndex(name) && Integer.parseInt(name) < list.size()) {
                node = list.get(Integer.parseInt(name));
            } else {
                return Optional.empty();
            }
        }
        return Optional.ofNullable(node);
    }

    /** The pointer of a child of the location {@code pointer}: its name escaped as RFC 6901 requires. */
    static String child(String pointer, String name) {
        return pointer + "/" + name.replace("~", "~0").replace("/", "~1");
    }

    private static boolean isIndex(String token) {
        return !token.isEmpty() && token.length() < 10 && token.chars().allMatch(c -> c >= '0' && c <= '9')
                && (token.length() == 1 || token.charAt(0) != '0');
    }
}
