/**
 * The Engine contract kit: {@link dev.pagantic.tck.EngineContractTest}, an abstract JUnit 5 class that every
 * {@link dev.pagantic.inference.Engine} implementation's tests extend, and {@link dev.pagantic.tck.ModelAssumptions},
 * which finds the small test models or skips a test without them.
 *
 * <p>An engine module's test extends the kit and implements {@code createEngine(Scenario)}; it inherits one named case
 * per rule of the {@link dev.pagantic.inference.Engine} contract. The
 * {@link dev.pagantic.tck.EngineContractTest.Scenario} tells a scripted engine what to script and is mostly ignored by
 * a real engine:
 *
 * <pre>{@code
 * class MyEngineContractTest extends EngineContractTest {
 *     @Override
 *     protected Engine createEngine(Scenario scenario) {
 *         return switch (scenario) {
 *             case BACKEND_FAILURE -> new MyEngine(unreachableServer());
 *             default -> new MyEngine(testServer());
 *         };
 *     }
 * }
 * }</pre>
 *
 * Cases for optional capabilities are skipped when the engine does not declare them; a subclass that cannot produce
 * a scenario skips it with {@code Assumptions.abort}. The kit's own tests prove that it can fail: deliberately
 * broken engines (ignoring {@code maxTokens}, cancellation or deadlines, dropping tool calls, leaking raw exceptions,
 * ...) each fail exactly the cases that check what they break.
 *
 * <h2>Design decision</h2>
 * The kit is its own artifact because it is a JUnit class: the fake engines of {@code pagantic-testkit} ship in the
 * adapters' production class path (their scripted mode), and the build's enforcer refuses any test framework there.
 * Only this artifact may depend on JUnit at compile scope.
 */
@NullMarked
package dev.pagantic.tck;

import org.jspecify.annotations.NullMarked;
