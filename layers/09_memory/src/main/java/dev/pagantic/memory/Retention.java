package dev.pagantic.memory;

/** How long an artefact is kept: the answer a {@link MemoryPolicy} gives for each {@link ArtifactKind}. */
public enum Retention {
    /** Working memory: used in this turn only and discarded when it ends; never in the conversation buffer. */
    TURN,
    /** Conversation memory: kept across turns in the process (the conversation buffer), but not stored. */
    CONVERSATION,
    /** Conversation memory that is also written to the durable {@link ConversationStore}, surviving a restart. */
    DURABLE;

    /** Whether the artefact outlives the turn (kept in the conversation buffer or the session state). */
    public boolean keepsAcrossTurns() {
        return this != TURN;
    }

    /** Whether the artefact is written to the durable store. */
    public boolean persists() {
        return this == DURABLE;
    }
}
