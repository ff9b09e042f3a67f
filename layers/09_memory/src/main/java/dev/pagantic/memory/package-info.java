/**
 * Layer 09, memory: what an agent remembers, for how long, and how it survives a crash.
 *
 * <h2>Domain concepts</h2>
 * The specification's memory model has three kinds of memory with different lifetimes:
 * <ul>
 *   <li>{@link dev.pagantic.memory.ConversationBuffer}: conversation memory, the messages that persist across turns
 *       (user and assistant messages, tool exchanges, the system prompt). It can be bounded by a message count and/or
 *       a token budget (measured with an inference {@code TokenCounter}); eviction drops the oldest
 *       <em>exchanges</em>, never a single message of one: an assistant tool-call message and its tool results go
 *       together, system messages are pinned, and the newest exchange is always kept. Snapshots
 *       ({@link dev.pagantic.memory.ConversationSnapshot}) are immutable copies a buffer can be rebuilt from.</li>
 *   <li>{@link dev.pagantic.memory.WorkingMemory}: per-turn, transient artefacts (retrieved context, intermediate
 *       output, scratch values), discarded by {@code endTurn()}.</li>
 *   <li>{@link dev.pagantic.memory.SessionState}: key-value decisions carried across turns (preferences, resolved
 *       entities); thread-safe, with atomic read-modify-write, JSON values so that they can be persisted.</li>
 * </ul>
 * A {@link dev.pagantic.memory.MemoryPolicy} decides, per {@link dev.pagantic.memory.ArtifactKind}, the
 * {@link dev.pagantic.memory.Retention}: {@code TURN} (working memory), {@code CONVERSATION} (the buffer) or
 * {@code DURABLE} (the buffer and the store). "Retrieved context is ephemeral" is this policy's default, not a special
 * case of the agent loop; a policy that keeps context is one builder call away. {@link dev.pagantic.memory.MemorySession}
 * wires a buffer, working memory, state and a store under a policy, and assembles a turn's request (history with the
 * turn's context inserted before the last message).
 *
 * <h2>Stores</h2>
 * A {@link dev.pagantic.memory.ConversationStore} persists sessions: appends of message batches (atomic), state puts
 * and removes, load, list, delete, compact. {@link dev.pagantic.memory.InMemoryConversationStore} lives in the
 * process; {@link dev.pagantic.memory.FileConversationStore} keeps an append-only journal per session: length-prefixed,
 * CRC32C-checksummed JSON records, forced to the device on every commit, replayed on open. A torn tail (a write cut by
 * a crash) is cut off; corruption in the middle is reported in a {@link dev.pagantic.memory.RecoveryReport} with the
 * valid prefix recovered and the original file preserved, never as an exception that loses the session. Compaction
 * writes a new file, forces it, renames it atomically over the journal and forces the directory. The crash test kills
 * a child JVM with SIGKILL mid-append, repeatedly, and finds every committed record and no partial one.
 * {@link dev.pagantic.memory.JdbcConversationStore} keeps sessions in three tables of a database that several store
 * instances (the instances of a service) share: PostgreSQL through the application's pool, or SQLite as the
 * zero-setup embedded database (chosen over H2 for commits forced to the device, a stable file format and files that
 * several processes can share). Appends are optimistic: the session's message count is its version, and an append
 * commits only if the count it read is unchanged, else it retries from the new count; so concurrent writers never
 * lose a message, and only failures before a commit are retried, so none is written twice.
 * {@link dev.pagantic.memory.ConversationStore#appendAt} is the same check for callers that must not interleave with
 * another writer. Messages and state values are stored in the journal's JSON forms, one codec for both stores.
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core, inference, Jackson and SLF4J only (the JDBC store on {@code java.sql}; the
 * driver is the application's choice), never on another band layer or on orchestrate. What every store must do is
 * the contract kit in {@code pagantic-memory-tck}, whose tests run it against each store here. State lives in objects
 * the application creates and passes in (no static registries); every type here is thread-safe, and reads return
 * immutable copies so that history can be inspected or serialised without aliasing.
 * Failures are {@code PaganticException}s: invalid input and configuration are {@code CONFIG_INVALID}; a session
 * journal already open in another store, an {@code appendAt} whose position is stale and a JDBC write that kept
 * meeting other writers are {@code ORCHESTRATION_CONCURRENT_USE}; storage failures are reported as
 * {@code CONFIG_INVALID} with the path or SQLState and the operation in the details (retryable when a database was
 * unreachable), since core has no storage code.
 */
@NullMarked
package dev.pagantic.memory;

import org.jspecify.annotations.NullMarked;
