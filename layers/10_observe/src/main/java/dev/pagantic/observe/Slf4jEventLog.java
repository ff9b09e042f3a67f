package dev.pagantic.observe;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * An event log that writes each event as one structured SLF4J log line and keeps nothing ({@link #events()} is
 * empty; {@link EventLog#tee tee} it with an {@link InMemoryEventLog} to do both).
 *
 * <p>Each line carries the event's {@link #fieldsOf fields} as SLF4J 2 key-value pairs, so that a structured backend
 * (a JSON encoder, an OpenTelemetry appender) gets them as separate attributes: {@code request_id} always, then
 * {@code session_id}, {@code trace_id}, {@code span_id}, {@code parent_span_id} and {@code caused_by} when not empty,
 * then {@code layer}, {@code action}, {@code duration_ms}, {@code error_code} and {@code error_message} when failed,
 * then the event's data. The message is {@code "<layer> <action>"}, so each field is printed once: by the backends
 * that print key-value pairs (slf4j-simple, Logback with {@code %kvp} in its pattern, JSON encoders). For a plain
 * pattern layout that prints no key-value pairs, {@link Builder#fieldsInMessage(boolean) fieldsInMessage(true)}
 * repeats the fields as {@code key=value} text in the message.
 *
 * <p>Successful events are logged at {@code INFO}, failed ones at {@code WARN}, both configurable. The default logger
 * is named {@code dev.pagantic.observe.events}. Thread-safe as SLF4J loggers are. Which backend prints the lines is
 * the application's choice: this library ships no SLF4J binding.
 */
public final class Slf4jEventLog implements EventLog {

    /** The name of the default logger. */
    public static final String DEFAULT_LOGGER_NAME = "dev.pagantic.observe.events";

    private final Logger logger;
    private final Level level;
    private final Level errorLevel;
    private final boolean fieldsInMessage;

    private Slf4jEventLog(Builder builder) {
        this.logger = builder.logger != null ? builder.logger : LoggerFactory.getLogger(DEFAULT_LOGGER_NAME);
        this.level = builder.level;
        this.errorLevel = builder.errorLevel;
        this.fieldsInMessage = builder.fieldsInMessage;
    }

    /**
     * A log with the defaults: the {@value #DEFAULT_LOGGER_NAME} logger, INFO, WARN for failures, fields as key-value
     * pairs only.
     */
    public static Slf4jEventLog create() {
        return builder().build();
    }

    /** Starts configuring a log. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void record(Event event) {
        Objects.requireNonNull(event, "event");
        Level at = event.failed() ? errorLevel : level;
        if (!logger.isEnabledForLevel(at)) {
            return;
        }
        Map<String, Object> fields = fieldsOf(event);
        LoggingEventBuilder line = logger.atLevel(at);
        fields.forEach(line::addKeyValue);
        line.log(message(event, fields));
    }

    /** Whether the logger writes at the level of successful or of failed events. */
    @Override
    public boolean isEnabled() {
        return logger.isEnabledForLevel(level) || logger.isEnabledForLevel(errorLevel);
    }

    /** Always empty: this log keeps nothing. */
    @Override
    public List<Event> events() {
        return List.of();
    }

    private String message(Event event, Map<String, Object> fields) {
        StringBuilder text = new StringBuilder(event.layer()).append(' ').append(event.action());
        if (fieldsInMessage) {
            fields.forEach((key, value) -> {
                if (!key.equals("layer") && !key.equals("action")) {
                    text.append(' ').append(key).append('=').append(value);
                }
            });
        }
        return text.toString();
    }

    /**
     * The fields a log line carries for the event, in order (see the class comment). A data key that would shadow
     * one of the event's own fields is written with a {@code data.} prefix. Empty optional correlation ids are left
     * out: a field is written when it applies, as the specification's required-fields table says.
     */
    public static Map<String, Object> fieldsOf(Event event) {
        Objects.requireNonNull(event, "event");
        Map<String, Object> fields = new LinkedHashMap<>();
        var correlation = event.correlation();
        fields.put("request_id", correlation.requestId());
        putIfNotEmpty(fields, "session_id", correlation.sessionId());
        putIfNotEmpty(fields, "trace_id", correlation.traceId());
        putIfNotEmpty(fields, "span_id", correlation.spanId());
        putIfNotEmpty(fields, "parent_span_id", correlation.parentSpanId());
        putIfNotEmpty(fields, "caused_by", correlation.causedBy());
        fields.put("layer", event.layer());
        fields.put("action", event.action());
        fields.put("timestamp", event.timestamp().toString());
        fields.put("duration_ms", event.duration().toMillis());
        event.error().ifPresent(error -> {
            fields.put("error_code", error.code());
            fields.put("error_message", error.message());
        });
        event.data().forEach((key, value) -> fields.put(fields.containsKey(key) ? "data." + key : key, value));
        return Collections.unmodifiableMap(fields);
    }

    private static void putIfNotEmpty(Map<String, Object> fields, String key, String value) {
        if (!value.isEmpty()) {
            fields.put(key, value);
        }
    }

    /** Configures an {@link Slf4jEventLog}. */
    public static final class Builder {
        private @Nullable Logger logger;
        private Level level = Level.INFO;
        private Level errorLevel = Level.WARN;
        private boolean fieldsInMessage;

        private Builder() {
        }

        /** The logger to write to; defaults to the one named {@value Slf4jEventLog#DEFAULT_LOGGER_NAME}. */
        public Builder logger(Logger value) {
            this.logger = Objects.requireNonNull(value, "logger");
            return this;
        }

        /** The logger of the given name. */
        public Builder loggerName(String name) {
            return logger(LoggerFactory.getLogger(Checks.requireNonBlank(name, "loggerName")));
        }

        /** The level of successful events; defaults to INFO. */
        public Builder level(Level value) {
            this.level = Objects.requireNonNull(value, "level");
            return this;
        }

        /** The level of failed events; defaults to WARN. */
        public Builder errorLevel(Level value) {
            this.errorLevel = Objects.requireNonNull(value, "errorLevel");
            return this;
        }

        /**
         * Whether the message text repeats the fields as {@code key=value}, for layouts that print no key-value pairs;
         * defaults to false, so that a backend that prints them shows each field once.
         */
        public Builder fieldsInMessage(boolean value) {
            this.fieldsInMessage = value;
            return this;
        }

        /** The log. */
        public Slf4jEventLog build() {
            return new Slf4jEventLog(this);
        }
    }
}
