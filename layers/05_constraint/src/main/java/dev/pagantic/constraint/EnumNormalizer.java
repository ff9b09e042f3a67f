package dev.pagantic.constraint;

import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.JsonNode;

/**
 * Rewrites enum values to the schema's canonical spelling (the seed's {@code NormalizeEnumValues}): a string whose
 * schema lists its values ({@code enum} or {@code const}) and that equals exactly one of them ignoring case and
 * surrounding whitespace becomes that value. It follows the schema to any depth: properties (declared, pattern-matched
 * or additional), {@code prefixItems} and {@code items}, through {@code $ref}, {@code allOf}, {@code anyOf} and
 * {@code oneOf}. Where one of the schemas that may apply to a string lists no values (a plain string branch of an
 * {@code anyOf}, say), the string may be valid as it is and is left alone.
 *
 * <p>Everything else is preserved exactly: the output is the input with only the rewritten string tokens spliced
 * in, so whitespace, key order and number text ({@code 1.10}, {@code 1e2}, {@code 12345678901234567890}) never
 * change, and the input is returned as is when nothing needs rewriting. A value that matches no enum value, or more
 * than one ignoring case (an ambiguous schema such as {@code ["Yes", "yes"]}), is left alone for the
 * {@link SchemaValidator} to report as {@code CONSTRAINT_ENUM_UNRECOGNIZED}.
 *
 * <pre>{@code
 * Schema schema = Schema.object().required("sentiment", Schema.enumOf("positive", "negative")).build();
 * EnumNormalizer.normalize("{\"sentiment\": \" Positive \"}", schema).json(); // {"sentiment": "positive"}
 * }</pre>
 *
 * <p>Stateless and thread-safe.
 */
public final class EnumNormalizer {

    private EnumNormalizer() {
    }

    /** Whether the schema declares string enum or const values anywhere, that is, whether normalisation can change anything. */
    public static boolean hasEnums(Schema schema) {
        Objects.requireNonNull(schema, "schema");
        return SchemaLocations.declaresStringValues(schema);
    }

    /**
     * Normalises the enum values of a JSON document.
     *
     * @throws PaganticException {@code CONSTRAINT_JSON_INVALID} when {@code json} is not valid JSON
     */
    public static EnumNormalization normalize(String json, Schema schema) {
        Objects.requireNonNull(json, "json");
        Objects.requireNonNull(schema, "schema");
        JsonText.read(json); // strict check first, with a located error
        return hasEnums(schema) ? normalizeChecked(json, new SchemaLocations(schema))
                : new EnumNormalization(json, List.of());
    }

    /** Normalises valid JSON with the locations of a schema known to declare string values (kept by a pipeline). */
    static EnumNormalization normalizeChecked(String json, SchemaLocations locations) {
        List<Edit> edits = new ArrayList<>();
        List<EnumChange> changes = new ArrayList<>();
        try (JsonParser parser = JsonText.MAPPER.createParser(json)) {
            parser.nextToken();
            walk(parser, json, locations, locations.root(), "$", edits, changes);
        } catch (JacksonException unexpected) {
            throw JsonText.invalid(json, 0, unexpected.getOriginalMessage(), unexpected);
        }
        if (edits.isEmpty()) {
            return new EnumNormalization(json, List.of());
        }
        StringBuilder out = new StringBuilder(json.length());
        int copied = 0;
        for (Edit edit : edits) {
            out.append(json, copied, edit.start()).append(edit.replacement());
            copied = edit.end();
        }
        out.append(json, copied, json.length());
        return new EnumNormalization(out.toString(), changes);
    }

    /**
     * Whether every string of an already parsed value that the schema lists values for is exactly one of them, so
     * that normalisation would change nothing: checked on the tree, without reading the text again. A grammar-
     * constrained model writes exact values, so the pipeline usually stops here.
     */
    static boolean isExact(JsonNode value, SchemaLocations locations) {
        return isExact(value, locations, locations.root());
    }

    private static boolean isExact(JsonNode value, SchemaLocations locations, SchemaLocations.At here) {
        if (value.isObject()) {
            for (Map.Entry<String, JsonNode> member : value.properties()) {
                if (!isExact(member.getValue(), locations, locations.property(here, member.getKey()))) {
                    return false;
                }
            }
        } else if (value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                if (!isExact(value.get(i), locations, locations.item(here, i))) {
                    return false;
                }
            }
        } else if (value.isString()) {
            List<String> values = locations.stringValues(here);
            return values.isEmpty() || values.contains(value.stringValue());
        }
        return true;
    }

    /** The canonical value for {@code value}, or the value itself when it is exact, unknown or ambiguous. */
    static String canonical(String value, List<String> enumValues) {
        if (enumValues.contains(value)) {
            return value;
        }
        String wanted = value.strip().toLowerCase(Locale.ROOT);
        String match = null;
        for (String candidate : enumValues) {
            if (candidate.toLowerCase(Locale.ROOT).equals(wanted)) {
                if (match != null) {
                    return value; // ambiguous: two enum values are equal ignoring case
                }
                match = candidate;
            }
        }
        return match == null ? value : match;
    }

    /** Walks the value at the parser's current token, which the schemas of {@code here} describe. */
    private static void walk(JsonParser parser, String json, SchemaLocations locations, SchemaLocations.At here,
                             String path, List<Edit> edits, List<EnumChange> changes) {
        JsonToken token = parser.currentToken();
        if (token == JsonToken.START_OBJECT) {
            while (parser.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = parser.currentName();
                parser.nextToken();
                walk(parser, json, locations, locations.property(here, name), childPath(path, name), edits, changes);
            }
        } else if (token == JsonToken.START_ARRAY) {
            int index = 0;
            while (parser.nextToken() != JsonToken.END_ARRAY) {
                walk(parser, json, locations, locations.item(here, index), path + "[" + index + "]", edits, changes);
                index++;
            }
        } else if (token == JsonToken.VALUE_STRING) {
            List<String> values = locations.stringValues(here);
            if (values.isEmpty()) {
                return;
            }
            int start = (int) parser.currentTokenLocation().getCharOffset();
            String value = parser.getString();
            String canonical = canonical(value, values);
            if (!canonical.equals(value)) {
                edits.add(new Edit(start, endOfString(json, start), JsonText.MAPPER.writeValueAsString(canonical)));
                changes.add(new EnumChange(path, value, canonical));
            }
        }
    }

    /** {@code $.name} for a plain name, {@code $['odd name']} otherwise. */
    static String childPath(String path, String name) {
        if (isIdentifier(name)) {
            return path + "." + name;
        }
        return path + "['" + name.replace("\\", "\\\\").replace("'", "\\'") + "']";
    }

    /** Whether the name matches {@code [A-Za-z_$][A-Za-z0-9_$]*} (checked by hand: this runs for every property). */
    private static boolean isIdentifier(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean letter = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_' || c == '$';
            if (!letter && (i == 0 || c < '0' || c > '9')) {
                return false;
            }
        }
        return true;
    }

    /** The offset just past the closing quote of the string token starting at {@code start}. */
    private static int endOfString(String json, int start) {
        int at = start + 1;
        while (json.charAt(at) != '"') {
            at += json.charAt(at) == '\\' ? 2 : 1;
        }
        return at + 1;
    }

    private record Edit(int start, int end, String replacement) {
    }
}
