package dev.pagantic.core;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The one exception type of pagantic: unchecked, and carrying the fields of the specification's {@code SystemError}
 * (code, category, retryable, message, details, cause) so that callers handle failures by inspecting
 * {@link #code()}, {@link #category()} and {@link #retryable()} rather than by parsing messages.
 *
 * <pre>{@code
 * throw PaganticException.builder(ErrorCode.TOOL_NOT_FOUND, "no tool named 'weather'")
 *         .detail("tool", "weather")
 *         .build();
 * }</pre>
 */
public final class PaganticException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final boolean retryable;
    private final transient Map<String, Object> details;

    private PaganticException(Builder builder) {
        super(builder.code.name() + ": " + builder.message, builder.cause);
        this.code = builder.code;
        this.retryable = builder.retryable;
        this.details = Collections.unmodifiableMap(new LinkedHashMap<>(builder.details));
    }

    /** An exception with the code's default retryability and no details. */
    public static PaganticException of(ErrorCode code, String message) {
        return builder(code, message).build();
    }

    /** An exception with the code's default retryability, no details, and the given cause. */
    public static PaganticException of(ErrorCode code, String message, @Nullable Throwable cause) {
        return builder(code, message).cause(cause).build();
    }

    /** A builder that starts from the code's default retryability. */
    public static Builder builder(ErrorCode code, String message) {
        return new Builder(code, message);
    }

    /** The stable error code. */
    public ErrorCode code() {
        return code;
    }

    /** The failure category, derived from the code. */
    public FailureCategory category() {
        return code.category();
    }

    /** Whether the caller may re-submit the same request with a reasonable chance of success. */
    public boolean retryable() {
        return retryable;
    }

    /** Structured diagnostic data (model name, schema path, tool name...). Immutable; never null. */
    public Map<String, Object> details() {
        return details != null ? details : Map.of(); // null only after Java deserialization (the field is transient)
    }

    /**
     * The human-readable description without the code prefix. Not stable: do not parse it.
     */
    public String description() {
        String full = getMessage();
        return full.substring(code.name().length() + 2);
    }

    /** Builds a {@link PaganticException}; obtained from {@link PaganticException#builder}. */
    public static final class Builder {
        private final ErrorCode code;
        private final String message;
        private boolean retryable;
        private @Nullable Throwable cause;
        private final Map<String, Object> details = new LinkedHashMap<>();

        private Builder(ErrorCode code, String message) {
            this.code = Objects.requireNonNull(code, "code");
            this.message = Objects.requireNonNull(message, "message");
            this.retryable = code.retryable();
        }

        /** Overrides the code's default retryability (an idempotent tool, a server that said "retry after"). */
        public Builder retryable(boolean retryable) {
            this.retryable = retryable;
            return this;
        }

        /** The underlying cause, for error-chain traversal. */
        public Builder cause(@Nullable Throwable cause) {
            this.cause = cause;
            return this;
        }

        /** Adds one diagnostic detail; a null value is ignored. */
        public Builder detail(String key, @Nullable Object value) {
            Objects.requireNonNull(key, "key");
            if (value != null) {
                details.put(key, value);
            }
            return this;
        }

        /** Adds all the given details; null values are ignored. */
        public Builder details(Map<String, ? extends @Nullable Object> values) {
            values.forEach(this::detail);
            return this;
        }

        public PaganticException build() {
            return new PaganticException(this);
        }
    }
}
