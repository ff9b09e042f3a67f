package dev.pagantic.adapter.tui;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * The little JSON the terminal reads and writes itself: schema files, scripted tool arguments and structured output
 * shown to the user. Conversations and responses use the facade's wire format ({@code FacadeJson}) instead.
 */
final class JsonText {

    private static final JsonMapper JSON = JsonMapper.builder().enable(SerializationFeature.INDENT_OUTPUT).build();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private JsonText() {
    }

    /**
     * A JSON object as a map of JSON values.
     *
     * @param what what the text is, for the error message
     * @throws PaganticException {@code CONFIG_INVALID} when the text is not a JSON object
     */
    static Map<String, Object> object(String text, String what) {
        try {
            Map<String, Object> value = JSON.readValue(text, OBJECT);
            if (value == null) {
                throw PaganticException.of(ErrorCode.CONFIG_INVALID, what + " must be a JSON object, not null");
            }
            return value;
        } catch (JacksonException notAnObject) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID,
                    what + " is not a JSON object: " + notAnObject.getOriginalMessage()).cause(notAnObject).build();
        }
    }

    /** A JSON value (a tree of JDK types) as indented JSON text. */
    static String pretty(Object value) {
        return JSON.writeValueAsString(value);
    }
}
