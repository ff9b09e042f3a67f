/**
 * Layer 09, conversation and session state (planned; not yet implemented).
 *
 * <h2>Domain concepts</h2>
 * Three kinds of memory with different lifetimes:
 * <ul>
 *   <li>{@code ConversationBuffer}: the conversation memory: user and assistant messages (and tool exchanges),
 *       persisted across turns of an agent loop.</li>
 *   <li>{@code WorkingMemory}: per-turn, transient artefacts (retrieved context, tool results, intermediate inference
 *       output), discarded after the turn.</li>
 *   <li>{@code SessionState}: durable key-value decisions carried across turns (preferences, resolved entities);
 *       thread-safe.</li>
 * </ul>
 * A {@code MemoryPolicy} decides what is kept where: ephemeral retrieved context, for example, is working memory and
 * never enters the conversation buffer. Stores persist buffers and session state; an in-memory store is the default.
 *
 * <h2>Contract</h2>
 * Part of the flat band: depends on core and inference only, never on another band layer or on orchestrate. State
 * lives in objects the application creates and passes in (no static registries), and copies are returned on read
 * so that history can be inspected or serialised without aliasing. Orchestrate's agent loop holds its conversation
 * in a buffer from this layer.
 */
package dev.pagantic.memory;
