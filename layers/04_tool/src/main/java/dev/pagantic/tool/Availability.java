package dev.pagantic.tool;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;

/**
 * Whether a tool can be called right now, and if not, why. A tool whose external dependency is down reports itself
 * unavailable: the registry leaves it out of the definitions offered to the model, and a call that arrives anyway
 * yields a {@code TOOL_UNAVAILABLE} result carrying the reason.
 *
 * @param available whether the tool can be called
 * @param reason    why it cannot; empty when available
 */
public record Availability(boolean available, String reason) {

    /** The tool can be called. */
    public static final Availability AVAILABLE = new Availability(true, "");

    public Availability {
        Objects.requireNonNull(reason, "reason");
        if (available && !reason.isEmpty()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "an available tool has no unavailability reason");
        }
        if (!available && reason.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "an unavailable tool must say why");
        }
    }

    /** The tool cannot be called now, for the given reason (shown to the model). */
    public static Availability unavailable(String reason) {
        return new Availability(false, reason);
    }
}
