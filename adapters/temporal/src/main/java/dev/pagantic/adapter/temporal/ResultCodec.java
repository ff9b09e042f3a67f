package dev.pagantic.adapter.temporal;

import com.fasterxml.jackson.annotation.JsonTypeInfo;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.jsontype.BasicPolymorphicTypeValidator;
import com.fasterxml.jackson.databind.jsontype.PolymorphicTypeValidator;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Writes an intercepted invocation's result (the SPI hands it over as an opaque value: a completed plan step, an
 * inference result or a tool result) to JSON and reads it back, so that it can live in the workflow history. The
 * values are records; where a record holds one of the library's interfaces (a step's sealed input and output), the
 * JSON names the implementing class, restricted to the library's own packages.
 */
final class ResultCodec {

    private static final String LIBRARY_PACKAGE = "dev.pagantic.";

    /** The kind of the entry that holds a request's final response. */
    static final String RESPONSE = "RESPONSE";

    private final ObjectMapper mapper;
    /** Writes invocation inputs for their digest: map entries sorted, so that every JVM writes the same text. */
    private final ObjectMapper inputs;

    ResultCodec() {
        PolymorphicTypeValidator library = BasicPolymorphicTypeValidator.builder()
                .allowIfSubType(LIBRARY_PACKAGE).build();
        ObjectMapper.DefaultTypeResolverBuilder typing = new LibraryInterfaces(library);
        typing.init(JsonTypeInfo.Id.CLASS, null);
        typing.inclusion(JsonTypeInfo.As.PROPERTY);
        this.mapper = new ObjectMapper()
                .findAndRegisterModules()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false)
                .configure(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS, false)
                .setDefaultTyping(typing);
        this.inputs = new ObjectMapper()
                .findAndRegisterModules()
                .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false)
                .configure(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS, false)
                .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);
    }

    /**
     * The key of an invocation, without its occurrence number: kind, name and a digest of the input. Two invocations
     * with equal inputs share it (a retried identical request); the replay tells them apart by occurrence.
     */
    String key(String kind, String name, Object input) {
        String text;
        try {
            text = inputs.writeValueAsString(input);
        } catch (JsonProcessingException unwritable) {
            // An input Jackson cannot write is told apart by its position among its kind and name alone.
            text = "";
        }
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return kind + ":" + name + ":" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JVM has SHA-256", impossible);
        }
    }

    JournalEntry record(String key, String kind, String name, Object result) {
        try {
            return new JournalEntry(key, kind, name, result.getClass().getName(), mapper.writeValueAsString(result),
                    null, null);
        } catch (JsonProcessingException e) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "cannot record the result of " + kind + " " + name
                    + " for durable execution: " + e.getOriginalMessage(), e);
        }
    }

    /** The entry's value; a recorded failure is thrown again. */
    Object value(JournalEntry entry) {
        if (entry.failed()) {
            throw PaganticException.of(ErrorCode.valueOf(entry.errorCode()), entry.errorMessage());
        }
        try {
            Class<?> type = Class.forName(entry.resultType(), false, ResultCodec.class.getClassLoader());
            return mapper.readValue(entry.resultJson(), type);
        } catch (ClassNotFoundException | JsonProcessingException e) {
            throw PaganticException.of(ErrorCode.ORCHESTRATION_STEP_MISMATCH, "cannot replay the recorded result of "
                    + entry.kind() + " " + entry.name() + ": " + e.getMessage(), e);
        }
    }

    /** Type information for the library's interfaces and abstract classes only (not for JDK collections). */
    private static final class LibraryInterfaces extends ObjectMapper.DefaultTypeResolverBuilder {
        private static final long serialVersionUID = 1L;

        LibraryInterfaces(PolymorphicTypeValidator validator) {
            super(ObjectMapper.DefaultTyping.NON_FINAL, validator);
        }

        @Override
        public boolean useForType(JavaType type) {
            Class<?> raw = type.getRawClass();
            return raw.getName().startsWith(LIBRARY_PACKAGE)
                    && (raw.isInterface() || Modifier.isAbstract(raw.getModifiers()));
        }
    }
}
