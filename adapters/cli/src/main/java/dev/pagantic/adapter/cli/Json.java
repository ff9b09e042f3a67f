package dev.pagantic.adapter.cli;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The command's JSON chores: reading schema and plan files, and printing JSON values for people. */
final class Json {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();
    private static final TypeReference<Map<String, Object>> OBJECT = new TypeReference<>() {
    };

    private Json() {
    }

    /**
     * The text of a file named on the command line.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when it cannot be read
     */
    static String readFile(Path file, String what) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            String reason = e instanceof NoSuchFileException ? "it does not exist" : e.toString();
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "cannot read the " + what + " file " + file
                            + ": " + reason)
                    .detail("path", file.toString())
                    .cause(e)
                    .build();
        }
    }

    /**
     * A JSON object as a map of JDK values.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the text is not a JSON object
     */
    static Map<String, Object> readObject(String text, String what) {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(text);
        } catch (JacksonException notJson) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, what + " is not JSON: "
                    + notJson.getOriginalMessage(), notJson);
        }
        if (tree == null || !tree.isObject()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, what + " is not a JSON object");
        }
        return MAPPER.convertValue(tree, OBJECT);
    }

    /** A JSON value (a tree of JDK types) as indented JSON. */
    static String pretty(Object value) {
        return MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(value);
    }

    /**
     * A failure that came before any response, as the error object of {@code --json}: the shape of the facade's
     * {@code error} field ({@code code}, {@code category}, {@code retryable}, {@code message}, {@code details}) under
     * {@code error}, with the command's {@code exit_code}.
     */
    static String error(PaganticException failure, int exitCode) {
        return errorObject(failure.code().name(), failure.category().displayName(), failure.retryable(),
                failure.description(), failure.details(), exitCode);
    }

    /** A usage error (picocli's) as the error object of {@code --json}, with the code {@code USAGE}. */
    static String usageError(String message, int exitCode) {
        return errorObject("USAGE", "UsageError", false, message, Map.of(), exitCode);
    }

    /** An unexpected exception (a bug) as the error object of {@code --json}, with the code {@code INTERNAL}. */
    static String internalError(String message, int exitCode) {
        return errorObject("INTERNAL", "InternalError", false, message, Map.of(), exitCode);
    }

    private static String errorObject(String code, String category, boolean retryable, String message,
                                      Map<String, ?> details, int exitCode) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("code", code);
        error.put("category", category);
        error.put("retryable", retryable);
        error.put("message", message);
        error.put("details", details);
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("error", error);
        root.put("exit_code", exitCode);
        return MAPPER.writeValueAsString(root);
    }
}
