package dev.pagantic.observe;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.event.LoggingEvent;
import org.slf4j.helpers.AbstractLogger;
import org.slf4j.spi.LoggingEventAware;

/**
 * An SLF4J logger that keeps the logging events it receives (message, level and key-value pairs), for asserting what
 * was logged without an SLF4J backend. Levels below the threshold are disabled.
 */
final class CapturingLogger extends AbstractLogger implements LoggingEventAware {

    private final transient List<LoggingEvent> events = new CopyOnWriteArrayList<>();
    private final Level threshold;

    CapturingLogger() {
        this(Level.TRACE);
    }

    CapturingLogger(Level threshold) {
        this.threshold = threshold;
        this.name = "capturing";
    }

    List<LoggingEvent> events() {
        return List.copyOf(events);
    }

    @Override
    public void log(LoggingEvent event) {
        events.add(event);
    }

    private boolean enabled(Level level) {
        return level.toInt() >= threshold.toInt();
    }

    @Override
    protected String getFullyQualifiedCallerName() {
        return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                               Throwable throwable) {
        throw new AssertionError("expected the fluent API to deliver a LoggingEvent");
    }

    @Override
    public boolean isTraceEnabled() {
        return enabled(Level.TRACE);
    }

    @Override
    public boolean isTraceEnabled(Marker marker) {
        return isTraceEnabled();
    }

    @Override
    public boolean isDebugEnabled() {
        return enabled(Level.DEBUG);
    }

    @Override
    public boolean isDebugEnabled(Marker marker) {
        return isDebugEnabled();
    }

    @Override
    public boolean isInfoEnabled() {
        return enabled(Level.INFO);
    }

    @Override
    public boolean isInfoEnabled(Marker marker) {
        return isInfoEnabled();
    }

    @Override
    public boolean isWarnEnabled() {
        return enabled(Level.WARN);
    }

    @Override
    public boolean isWarnEnabled(Marker marker) {
        return isWarnEnabled();
    }

    @Override
    public boolean isErrorEnabled() {
        return enabled(Level.ERROR);
    }

    @Override
    public boolean isErrorEnabled(Marker marker) {
        return isErrorEnabled();
    }
}
