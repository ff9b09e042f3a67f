package dev.pagantic.memory;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.io.IOException;
import java.nio.file.Path;

/** Validation and failures shared by the stores. */
final class StoreSupport {

    private StoreSupport() {
    }

    static String requireSessionId(String sessionId) {
        if (sessionId == null || sessionId.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "session id must not be blank");
        }
        if (sessionId.length() > ConversationStore.MAX_SESSION_ID_LENGTH) {
            throw PaganticException.builder(ErrorCode.CONFIG_INVALID, "session id is longer than "
                    + ConversationStore.MAX_SESSION_ID_LENGTH + " characters").detail("sessionId", sessionId).build();
        }
        return sessionId;
    }

    /** The failure of {@link ConversationStore#appendAt} when the conversation does not end at the position. */
    static PaganticException notAt(String sessionId, long position, long actual) {
        return PaganticException.builder(ErrorCode.ORCHESTRATION_CONCURRENT_USE, "session '" + sessionId
                        + "' holds " + actual + " messages, not " + position + ": another writer changed it")
                .detail("sessionId", sessionId).detail("position", position).detail("messages", actual).build();
    }

    static PaganticException closed() {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, "the conversation store is closed");
    }

    /**
     * A storage failure. Core has no storage category, so it is reported as {@code CONFIG_INVALID} (the store's
     * directory is unusable), not retryable, with the path and operation in the details.
     */
    static PaganticException io(String operation, Path path, IOException cause) {
        return PaganticException.builder(ErrorCode.CONFIG_INVALID,
                        "conversation store could not " + operation + " " + path + ": " + cause.getMessage())
                .retryable(false).detail("operation", operation).detail("path", path.toString()).cause(cause).build();
    }
}
