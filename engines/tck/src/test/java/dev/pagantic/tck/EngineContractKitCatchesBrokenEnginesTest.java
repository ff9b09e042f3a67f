package dev.pagantic.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import dev.pagantic.tck.BrokenEngineContracts.BrokenBackendFailureContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenCancellationContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenCapabilityCheckContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenCloseContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenDeadlineContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenDeltasContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenGrammarContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenLateCancellationContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenMaxTokensContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenSeedContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenStopContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenStreamingContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenToolCallsContract;
import dev.pagantic.tck.BrokenEngineContracts.BrokenUsageContract;
import dev.pagantic.tck.BrokenEngineContracts.RunOnlyWhenProvingTheKit;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.Events;

/**
 * Proves that the contract kit can fail: each deliberately broken engine must fail exactly the cases that check what
 * it breaks, and pass (or skip) every other, and a healthy engine run the same way must fail none.
 */
class EngineContractKitCatchesBrokenEnginesTest {

    private static final Set<String> CONTRACT_CASES = Arrays.stream(EngineContractTest.class.getDeclaredMethods())
            .filter(method -> method.isAnnotationPresent(Test.class))
            .map(Method::getName)
            .collect(Collectors.toUnmodifiableSet());

    /** A broken contract and the cases it must fail. */
    record Breakage(Class<? extends EngineContractTest> contract, Set<String> failingCases) {
        @Override
        public String toString() {
            return contract.getSimpleName();
        }
    }

    static Stream<Breakage> brokenEngines() {
        return Stream.of(
                new Breakage(BrokenMaxTokensContract.class,
                        Set.of("maxTokensBoundsTheOutputAndACutReplyFinishesWithLength")),
                new Breakage(BrokenUsageContract.class,
                        Set.of("usageIsReportedAndConsistentWithTheModelInfo")),
                new Breakage(BrokenDeltasContract.class,
                        Set.of("streamedDeltasConcatenateToTheResult")),
                new Breakage(BrokenCancellationContract.class,
                        Set.of("cancellationBeforeACallFailsWithCancelledSignal",
                                "cancellationDuringAStreamedCallStopsItBetweenTokens",
                                "cancellationFromAnotherThreadEndsARunningCall")),
                new Breakage(BrokenLateCancellationContract.class,
                        Set.of("cancellationDuringAStreamedCallStopsItBetweenTokens")),
                new Breakage(BrokenDeadlineContract.class,
                        Set.of("deadlineAlreadyPassedFailsWithCancelledTimeout",
                                "deadlinePassingBetweenStreamedTokensStopsTheCall",
                                "deadlinePassingDuringACallFailsWithCancelledTimeout")),
                new Breakage(BrokenToolCallsContract.class,
                        Set.of("toolDefinitionsArePassedAndToolCallsReturned")),
                new Breakage(BrokenGrammarContract.class,
                        Set.of("grammarConstrainsTheOutput")),
                new Breakage(BrokenBackendFailureContract.class,
                        Set.of("backendFailureSurfacesAsAnInferenceFailure")),
                new Breakage(BrokenCloseContract.class,
                        Set.of("inferAfterCloseFailsWithEngineClosed")),
                new Breakage(BrokenCapabilityCheckContract.class,
                        Set.of("undeclaredCapabilitiesAreRefused")),
                new Breakage(BrokenStopContract.class,
                        Set.of("aStopStringEndsTheReplyBeforeIt")),
                new Breakage(BrokenSeedContract.class,
                        Set.of("theSameSeedGivesTheSameReply")),
                new Breakage(BrokenStreamingContract.class,
                        Set.of("streamingEngineDeliversAMultiTokenReplyInSeveralDeltas",
                                "cancellationDuringAStreamedCallStopsItBetweenTokens",
                                "cancellationFromAnotherThreadEndsARunningCall",
                                "deadlinePassingBetweenStreamedTokensStopsTheCall")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenEngines")
    @DisplayName("the kit fails exactly the cases a broken engine breaks")
    void theKitFailsExactlyTheCasesABrokenEngineBreaks(Breakage breakage) {
        assertThat(CONTRACT_CASES).containsAll(breakage.failingCases());

        Events cases = run(breakage.contract());

        assertThat(caseNames(cases.started())).isEqualTo(CONTRACT_CASES);
        assertThat(caseNames(cases.failed())).isEqualTo(breakage.failingCases());
        assertThat(cases.succeeded().count() + cases.aborted().count() + cases.failed().count())
                .isEqualTo(CONTRACT_CASES.size());
        // The kit noticed the flaw through an assertion: it did not crash on the broken engine.
        assertThat(failures(cases)).allSatisfy((name, failure) -> assertThat(failure).isInstanceOf(AssertionError.class));
    }

    @Test
    @DisplayName("a healthy engine run the same way fails no case")
    void aHealthyEngineRunTheSameWayFailsNoCase() {
        Events cases = run(ScriptedEngineContractTest.class);

        assertThat(caseNames(cases.started())).isEqualTo(CONTRACT_CASES);
        assertThat(caseNames(cases.failed())).isEmpty();
        // The default scripted engine declares no grammar, so only that case is skipped.
        assertThat(caseNames(cases.aborted())).containsExactly("grammarConstrainsTheOutput");
    }

    @Test
    @DisplayName("broken contracts are disabled outside the proof")
    void brokenContractsAreDisabledOutsideTheProof() {
        Events containers = EngineTestKit.engine("junit-jupiter").selectors(selectClass(BrokenCloseContract.class))
                .execute().containerEvents();

        assertThat(containers.skipped().count()).isEqualTo(1);
        assertThat(containers.started().count()).isEqualTo(1); // the engine container only; the class never starts
    }

    @Test
    @DisplayName("every contract case is public, final and named in the kit")
    void everyContractCaseIsPublicAndFinal() {
        assertThat(CONTRACT_CASES).hasSize(20);
        for (Method method : EngineContractTest.class.getDeclaredMethods()) {
            if (method.isAnnotationPresent(Test.class)) {
                assertThat(Modifier.isPublic(method.getModifiers()) && Modifier.isFinal(method.getModifiers()))
                        .as("%s is public and final, so a subclass cannot silently drop it", method.getName())
                        .isTrue();
                assertThat(method.isAnnotationPresent(DisplayName.class)).as("%s has a display name", method.getName())
                        .isTrue();
            }
        }
    }

    private static Events run(Class<?> contract) {
        return EngineTestKit.engine("junit-jupiter")
                .configurationParameter(RunOnlyWhenProvingTheKit.PARAMETER, "true")
                .selectors(selectClass(contract))
                .execute()
                .testEvents();
    }

    private static Set<String> caseNames(Events events) {
        return events.stream().map(EngineContractKitCatchesBrokenEnginesTest::caseName)
                .collect(Collectors.toUnmodifiableSet());
    }

    private static Map<String, Throwable> failures(Events cases) {
        Map<String, Throwable> failures = new TreeMap<>();
        cases.failed().stream().forEach(event -> failures.put(caseName(event), event
                .getPayload(TestExecutionResult.class).flatMap(TestExecutionResult::getThrowable).orElseThrow()));
        return failures;
    }

    private static String caseName(Event event) {
        Optional<org.junit.platform.engine.support.descriptor.MethodSource> source = event.getTestDescriptor()
                .getSource()
                .filter(org.junit.platform.engine.support.descriptor.MethodSource.class::isInstance)
                .map(org.junit.platform.engine.support.descriptor.MethodSource.class::cast);
        return source.map(org.junit.platform.engine.support.descriptor.MethodSource::getMethodName).orElseThrow();
    }
}
