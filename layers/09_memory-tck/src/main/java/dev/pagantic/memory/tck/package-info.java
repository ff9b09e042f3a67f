/**
 * The conversation-store compatibility kit: what every {@link dev.pagantic.memory.ConversationStore} must do, as
 * JUnit 5 test classes that a store's tests extend, in the style of Micrometer's {@code MeterRegistryCompatibilityKit}.
 *
 * <h2>Levels</h2>
 * {@link dev.pagantic.memory.tck.ConversationStoreContract} is what every store does (a test class supplies
 * {@code createStore()}); {@link dev.pagantic.memory.tck.DurableConversationStoreContract} adds what a store that
 * outlives its process does ({@code reopenStore()}); {@link dev.pagantic.memory.tck.SharedConversationStoreContract}
 * adds what a store whose storage several instances use at once does ({@code openAnotherStore()}), among it two
 * instances with four threads each appending to the same sessions without losing a message.
 *
 * <h2>Decisions</h2>
 * The kit is its own artifact, not a test-jar of {@code pagantic-memory}: a store written outside this repository
 * depends on it in test scope like on any library, with its dependencies (JUnit's API, AssertJ) declared and its
 * javadoc published. Maven forbids {@code pagantic-memory}'s tests from depending on an artifact that depends on
 * {@code pagantic-memory}, so this module's own tests run the kit against the stores that {@code pagantic-memory}
 * ships. {@link dev.pagantic.memory.tck.PostgresServer} starts a throw-away PostgreSQL cluster from an installed
 * PostgreSQL, so that a JDBC store is tested on the real server rather than an imitation; it is JUnit-free and used by
 * the benchmarks too. Nothing here is static state: each test class holds its stores.
 */
@NullMarked
package dev.pagantic.memory.tck;

import org.jspecify.annotations.NullMarked;
