package dev.pagantic.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.describe;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.type;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget.MethodCallTarget;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.library.GeneralCodingRules;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.BitSet;
import java.util.Calendar;
import java.util.Collection;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The dependency rule of DESIGN.md as ArchUnit rules, each built for a root package. With the root
 * {@code dev.pagantic} they check the real modules; with the root of a test fixture they check deliberately violating
 * (or compliant) classes, which is how the tests prove that every rule can fail. Below the root the layout is:
 * {@code core}, {@code inference} (grammar language in {@code inference.grammar}), {@code types} (Java types as
 * schemas), {@code orchestrate} (facade in
 * {@code orchestrate.facade}, interception SPI in {@code orchestrate.spi}), the band ({@code context}, {@code tool},
 * {@code constraint}, {@code rerank}, {@code validate}, {@code prompt}, {@code memory}, {@code observe}),
 * {@code engine.<name>}, {@code testkit} and {@code tck} (engines), {@code adapter.<name>} and {@code examples}.
 *
 * <p>Every rule allows an empty selection, because most modules are still empty; {@code ArchitectureTest} checks
 * separately that the import sees the production classes, so a wrong root cannot make the rules pass vacuously.
 */
public final class LayerRules {

    /** The band, layers 03 to 10: independent of each other, each depending only on core and inference. */
    private static final List<String> BAND =
            List.of("context", "tool", "constraint", "rerank", "validate", "prompt", "memory", "observe");

    /**
     * Simple names of classes that implement the GBNF grammar language (parse, check, match or generate it). A naming
     * heuristic: it catches a second grammar implementation only when its name says what it is.
     */
    private static final String GRAMMAR_CODE_NAME =
            ".*(Gbnf|Grammar).*(Parser|Parsing|Checker|Lexer|Tokenizer|Compiler|Generator|Converter|Matcher).*"
                    + "|.*To(Gbnf|Grammar).*";

    private static final String JDK = "java..";

    /** JSpecify's nullness annotations: annotations only, the one library core and inference may name. */
    private static final String NULLNESS = "org.jspecify.annotations..";

    /** Logging APIs other than SLF4J; a library that logs through them forces its backend on the application. */
    private static final String[] FOREIGN_LOGGING_PACKAGES = {
        "java.util.logging..", "org.apache.logging.log4j..", "org.apache.log4j..", "org.apache.commons.logging..",
        "ch.qos.logback..", "org.tinylog.."
    };

    /**
     * Enum methods that only name or list constants, which adapters may call on wired types: javac itself calls
     * values() and ordinal() for a switch over an enum, and reading a constant is configuration, not behaviour.
     */
    private static final Set<String> ENUM_CONSTANT_API = Set.of("values", "valueOf", "name", "ordinal");

    /**
     * Methods of engines that only report their state, which the Spring Boot adapter's health indicator may call
     * (besides the accessors of the records they return).
     */
    private static final Set<String> ENGINE_STATE_API = Set.of("modelInfo", "health", "endpoint");

    /** JDK types (and their subtypes) whose instances can change, besides arrays, collections and atomics. */
    private static final List<Class<?>> MUTABLE_JDK_TYPES = List.of(StringBuilder.class, StringBuffer.class,
            Random.class, ThreadLocal.class, Date.class, Calendar.class, BitSet.class, Executor.class);

    private final String root;

    private LayerRules(String root) {
        this.root = root;
    }

    /** The rules for the modules below {@code root}, for example {@code dev.pagantic}. */
    public static LayerRules forRoot(String root) {
        return new LayerRules(root);
    }

    /** Every rule by name, in the order of DESIGN.md; the name is the method that builds it. */
    public Map<String, ArchRule> all() {
        Map<String, ArchRule> rules = new LinkedHashMap<>();
        rules.put("coreDependsOnlyOnTheJdk", coreDependsOnlyOnTheJdk());
        rules.put("inferenceDependsOnlyOnCore", inferenceDependsOnlyOnCore());
        rules.put("typesDependsOnlyOnCore", typesDependsOnlyOnCore());
        rules.put("bandLayersDependOnlyOnCoreAndInference", bandLayersDependOnlyOnCoreAndInference());
        rules.put("bandLayersDoNotDependOnEachOther", bandLayersDoNotDependOnEachOther());
        rules.put("nothingBelowOrchestrateDependsOnIt", nothingBelowOrchestrateDependsOnIt());
        rules.put("orchestrateUsesEnginesOnlyThroughTheInferenceSpi",
                orchestrateUsesEnginesOnlyThroughTheInferenceSpi());
        rules.put("orchestrateRootHoldsOnlyItsPackageDocumentation", orchestrateRootHoldsOnlyItsPackageDocumentation());
        rules.put("onlyTheInferenceCallCallsAnEngine", onlyTheInferenceCallCallsAnEngine());
        rules.put("orchestrateInternalsStayInsideOrchestrate", orchestrateInternalsStayInsideOrchestrate());
        rules.put("orchestrateRoomsDoNotDependOnTheFacade", orchestrateRoomsDoNotDependOnTheFacade());
        rules.put("portsDependOnlyOnCoreInferenceAndTheBand", portsDependOnlyOnCoreInferenceAndTheBand());
        rules.put("enginesDependOnlyOnCoreAndInference", enginesDependOnlyOnCoreAndInference());
        rules.put("enginesDoNotDependOnEachOther", enginesDoNotDependOnEachOther());
        rules.put("adaptersDependOnlyOnTheFacadeCoreAndWiredComponents",
                adaptersDependOnlyOnTheFacadeCoreAndWiredComponents());
        rules.put("onlyTheTemporalAndObservabilityAdaptersUseTheInterceptionSpi",
                onlyTheTemporalAndObservabilityAdaptersUseTheInterceptionSpi());
        rules.put("adaptersOnlyBuildAndCloseWiredComponents", adaptersOnlyBuildAndCloseWiredComponents());
        rules.put("adaptersDoNotDependOnEachOther", adaptersDoNotDependOnEachOther());
        rules.put("theMcpAdapterUsesOnlyCoreTheFacadeTheToolLayerAndWhatItWires",
                theMcpAdapterUsesOnlyCoreTheFacadeTheToolLayerAndWhatItWires());
        rules.put("theObservabilityAdaptersUseOnlyCoreInferenceObserveTheFacadeAndTheSpi",
                theObservabilityAdaptersUseOnlyCoreInferenceObserveTheFacadeAndTheSpi());
        rules.put("grammarCodeLivesOnlyInInferenceGrammar", grammarCodeLivesOnlyInInferenceGrammar());
        rules.put("onlyInferenceNamesClassesGbnf", onlyInferenceNamesClassesGbnf());
        rules.put("packagesAreFreeOfCycles", packagesAreFreeOfCycles());
        rules.put("libraryCodeNeverWritesToTheConsole", libraryCodeNeverWritesToTheConsole());
        rules.put("libraryCodeLogsThroughSlf4jOnly", libraryCodeLogsThroughSlf4jOnly());
        rules.put("staticFieldsAreFinal", staticFieldsAreFinal());
        rules.put("staticFieldsAreNotOfMutableTypes", staticFieldsAreNotOfMutableTypes());
        rules.put("everyClassBelongsToAKnownLayer", everyClassBelongsToAKnownLayer());
        return rules;
    }

    // ----------------------------------------------------------------------------------------------- core, inference

    public ArchRule coreDependsOnlyOnTheJdk() {
        return rule(classes().that().resideInAPackage(core())
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, NULLNESS, core())
                .because("core is the vocabulary every other module shares (messages, errors, the call context); "
                        + "it depends on nothing but the JDK (and JSpecify's nullness annotations, which carry no "
                        + "code), so that any module and any application can use it without pulling in a library or "
                        + "another layer"));
    }

    public ArchRule inferenceDependsOnlyOnCore() {
        return rule(classes().that().resideInAPackage(inference())
                .should().onlyDependOnClassesThat().resideInAnyPackage(JDK, NULLNESS, core(), inference())
                .because("inference is the Engine SPI and the GBNF grammar language that every engine, the band and "
                        + "orchestrate speak; it depends only on core and the JDK, so that implementing an engine "
                        + "never drags in orchestration, a band layer or a third-party library"));
    }

    public ArchRule typesDependsOnlyOnCore() {
        return rule(classes().that().resideInAPackage(types())
                .should().onlyDependOnClassesThat(outsideRoot().or(resideInAnyPackage(core(), types())))
                .because("types turns Java types into schemas and validated output back into Java types for the "
                        + "band and orchestrate alike; it uses core and its libraries (Jackson, the schema "
                        + "generator) only, so that any layer above core can use it without a cycle"));
    }

    // ------------------------------------------------------------------------------------------------------ the band

    public ArchRule bandLayersDependOnlyOnCoreAndInference() {
        return rule(classes().that().resideInAnyPackage(band())
                .should().onlyDependOnClassesThat(outsideRoot().or(resideInAnyPackage(coreInferenceAndBand())))
                .because("a band layer (context, tool, constraint, rerank, validate, prompt, memory, observe) is a "
                        + "component that orchestrate composes: it may use core, inference, types and third-party "
                        + "libraries, "
                        + "but never orchestrate, an engine, an adapter or the examples; orchestrate declares the "
                        + "ports it needs and band types plug in by method reference"));
    }

    public ArchRule bandLayersDoNotDependOnEachOther() {
        return rule(slices().assignedFrom(modulesWhere("band layers", BAND::contains))
                .should().notDependOnEachOther()
                .because("no band layer imports another: each is usable on its own, and only orchestrate combines "
                        + "them; if two layers need the same type it belongs in core or inference"));
    }

    // --------------------------------------------------------------------------------------------------- orchestrate

    public ArchRule nothingBelowOrchestrateDependsOnIt() {
        return rule(noClasses().that().resideInAnyPackage(coreInferenceAndBand())
                .should().dependOnClassesThat().resideInAPackage(orchestrate())
                .because("orchestrate is the only layer that reaches across the band; core, inference and the band "
                        + "sit below it, and an import of orchestrate from there would make a cycle between layers"));
    }

    public ArchRule orchestrateUsesEnginesOnlyThroughTheInferenceSpi() {
        return rule(noClasses().that().resideInAPackage(orchestrate())
                .should().dependOnClassesThat().resideInAnyPackage(enginesAdaptersAndExamples())
                .because("orchestrate drives engines through the inference SPI (Engine), so any engine plugs in; "
                        + "concrete engines, adapters and examples are built on top of orchestrate, never below it"));
    }

    public ArchRule orchestrateRootHoldsOnlyItsPackageDocumentation() {
        return rule(classes().that().resideInAPackage(root + ".orchestrate")
                .should().haveSimpleName("package-info")
                .because("orchestrate is organised in rooms, one subpackage per concept (facade, agent, structured, "
                        + "plan, vote, multimodel, loop, ports, internal, spi, lifecycle), so that a reader finds a "
                        + "concept by its package; the root package only documents the layer"));
    }

    public ArchRule onlyTheInferenceCallCallsAnEngine() {
        return rule(noClasses().that().resideInAPackage(orchestrate())
                .and().doNotHaveFullyQualifiedName(root + ".orchestrate.internal.InferenceCall")
                .should().callMethodWhere(anInferenceOfAnEngine())
                .because("every inference of orchestrate (loops, planners, replanners, multi-model modes, plan steps) "
                        + "goes through the one inference path, internal.InferenceCall, which applies the interceptor "
                        + "and records inference_start and inference_end; a direct engine call would skip both"));
    }

    public ArchRule orchestrateInternalsStayInsideOrchestrate() {
        return rule(noClasses().that().resideOutsideOfPackage(orchestrate())
                .should().dependOnClassesThat().resideInAPackage(internal())
                .because("orchestrate.internal holds the machinery its rooms share (the one inference path, "
                        + "structured output, the lifecycle's phases); it is no API and may change at any time"));
    }

    public ArchRule orchestrateRoomsDoNotDependOnTheFacade() {
        return rule(noClasses().that().resideInAPackage(orchestrate()).and().resideOutsideOfPackage(facade())
                .should().dependOnClassesThat().resideInAPackage(facade())
                .because("the facade is the top of orchestrate: it routes a request to the rooms (agent, structured, "
                        + "plan, vote, multimodel) and they never reach back, so each pattern is usable on its own "
                        + "and the layer has no cycle"));
    }

    public ArchRule portsDependOnlyOnCoreInferenceAndTheBand() {
        return rule(classes().that().resideInAPackage(ports())
                .should().onlyDependOnClassesThat(outsideRoot().or(resideInAnyPackage(concat(coreInferenceAndBand(),
                        ports()))))
                .because("a port is where another layer's component plugs into orchestrate (a context builder, a "
                        + "reranker, a prompt); adapters see the ports, so they speak only core, inference and the "
                        + "band, never a pattern's types"));
    }

    // ------------------------------------------------------------------------------------------------------- engines

    public ArchRule enginesDependOnlyOnCoreAndInference() {
        return rule(classes().that().resideInAnyPackage(engines())
                .should().onlyDependOnClassesThat(outsideRoot().or(resideInAnyPackage(engineAllowed())))
                .because("an engine implements the inference SPI with its vendor library (java-llama.cpp, an HTTP "
                        + "client); it depends on core and inference only, never on orchestrate, a band layer or an "
                        + "adapter, so that it can be swapped without touching anything above it"));
    }

    public ArchRule enginesDoNotDependOnEachOther() {
        return rule(slices().assignedFrom(modulesWhere("engines", this::isEngineModule))
                .should().notDependOnEachOther()
                .because("engines are interchangeable implementations of one SPI (the testkit counts as one; the "
                        + "contract kit, which checks engines, may use the testkit); what two engines share belongs in "
                        + "inference"));
    }

    // ------------------------------------------------------------------------------------------------------ adapters

    public ArchRule adaptersDependOnlyOnTheFacadeCoreAndWiredComponents() {
        return rule(classes().that().resideInAPackage(adapters())
                .should().onlyDependOnClassesThat(outsideRoot().or(resideInAnyPackage(adapterAllowed()))
                        .or(areTheAgentEventProtocol()))
                .because("an adapter turns a command line, a terminal, HTTP or a workflow into SystemRequest and "
                        + "SystemResponse: among pagantic types it uses core, orchestrate's facade (the interception "
                        + "SPI only in the temporal adapter), orchestrate's ports and the loops' shared settings that "
                        + "the orchestrator's builder inherits, the agent events (and their listener) that the "
                        + "facade streams, and the engines and band components it wires up, and nothing of "
                        + "orchestrate's internals"));
    }

    public ArchRule onlyTheTemporalAndObservabilityAdaptersUseTheInterceptionSpi() {
        return rule(noClasses().that().resideInAPackage(adapters()).and().resideOutsideOfPackage(temporal())
                .and().resideOutsideOfPackage(openTelemetry()).and().resideOutsideOfPackage(micrometer())
                .should().dependOnClassesThat().resideInAPackage(spi())
                .because("the interception SPI exists so that engine calls, tool calls and plan steps can run as "
                        + "durable Temporal activities and be observed (OpenTelemetry spans, Micrometer "
                        + "observations); those are the named exceptions to 'adapters use only the facade', and only "
                        + "adapters/temporal, adapters/opentelemetry and adapters/micrometer have it"));
    }

    public ArchRule adaptersOnlyBuildAndCloseWiredComponents() {
        return rule(noClasses().that().resideInAPackage(adapters())
                .should().callMethodWhere(aNonWiringCallIntoAComponent())
                .because("adapters wire engines and band components up but never use them: they may call a static "
                        + "builder(), the methods of a builder (a class named *Builder that has a build() without "
                        + "parameters), close() and an enum's values()/valueOf()/name()/ordinal(), and may pass "
                        + "method references; any other call (inference, prompt construction, tool execution, JSON "
                        + "validation) belongs behind the facade. The exceptions are the MCP adapter's use of the "
                        + "tool layer (it implements Tool for an MCP server's tools and serves a ToolRegistry through "
                        + "a ToolExecutor), the observability adapters' reading of the inference values and events "
                        + "they observe, and the Spring Boot adapter's health indicator, which reads an engine's "
                        + "state (modelInfo(), a fleet's health(), a server's endpoint() and the records they "
                        + "return)"));
    }

    public ArchRule adaptersDoNotDependOnEachOther() {
        return rule(slices().assignedFrom(modulesWhere("adapters",
                        module -> module.startsWith("adapter.") && !module.equals("adapter.spring")))
                .should().notDependOnEachOther()
                .because("each adapter stands alone on the facade; what two adapters share belongs in the facade or "
                        + "core (the Spring Boot starter, adapter.spring, is one of the places DESIGN.md allows to put "
                        + "several together, and is left out of this rule)"));
    }

    public ArchRule theMcpAdapterUsesOnlyCoreTheFacadeTheToolLayerAndWhatItWires() {
        return rule(classes().that().resideInAPackage(mcp())
                .should().onlyDependOnClassesThat(outsideRoot().or(resideInAnyPackage(mcpAllowed())))
                .because("the MCP adapter bridges MCP and the tool layer: MCP servers' tools become Tools, and a "
                        + "ToolRegistry is served through a ToolExecutor; pagantic's modes are reached through the "
                        + "facade (pagantic_request), and engines are only wired for its command. It uses no "
                        + "orchestrate internals, not the interception SPI, and no other adapter"));
    }

    public ArchRule theObservabilityAdaptersUseOnlyCoreInferenceObserveTheFacadeAndTheSpi() {
        return rule(classes().that().resideInAnyPackage(openTelemetry(), micrometer())
                .should().onlyDependOnClassesThat(outsideRoot().or(resideInAnyPackage(observabilityAllowed())))
                .because("the observability adapters watch what the interception SPI hands them (requests, "
                        + "inference requests and results, tool calls) and the events of the observe layer, and "
                        + "read the facade's request and response; they wire and run no engine, tool or other band "
                        + "component, and use no other adapter"));
    }

    // ------------------------------------------------------------------------------------------------------- grammar

    public ArchRule grammarCodeLivesOnlyInInferenceGrammar() {
        return rule(classes().that().resideInAPackage(everything()).and(areNamedLikeGrammarCode())
                .should().resideInAPackage(grammar())
                .because("the GBNF grammar language has one owner, inference.grammar: engines, constraint and "
                        + "orchestrate use its parser, checker and Schema-to-GBNF generator from there, so grammar "
                        + "code is never written twice (a naming heuristic: a class whose name says it parses, "
                        + "checks, matches or generates grammars)"));
    }

    public ArchRule onlyInferenceNamesClassesGbnf() {
        return rule(noClasses().that().resideInAPackage(everything()).and().resideOutsideOfPackage(inference())
                .should().haveSimpleNameStartingWith("Gbnf")
                .because("a class named Gbnf* outside inference is most likely a second implementation of the "
                        + "grammar language; use inference.grammar instead (a naming heuristic)"));
    }

    // ------------------------------------------------------------------------------------------------- general rules

    public ArchRule packagesAreFreeOfCycles() {
        return rule(slices().matching(root + ".(**)")
                .should().beFreeOfCycles()
                .because("a cycle between packages makes them one unit that can only be understood, tested and "
                        + "changed together; every package, subpackages included, depends one way"));
    }

    public ArchRule libraryCodeNeverWritesToTheConsole() {
        return rule(noClasses().that(areLibraryCode())
                .should(GeneralCodingRules.ACCESS_STANDARD_STREAMS)
                .because("a library must not write to the application's console: report through SLF4J, events or "
                        + "return values; only adapters and examples own the console"));
    }

    public ArchRule libraryCodeLogsThroughSlf4jOnly() {
        // Not GeneralCodingRules.USE_JAVA_UTIL_LOGGING: it only sees fields of a java.util.logging type being set,
        // and misses a Logger that is looked up and used in a method.
        return rule(noClasses().that(areLibraryCode())
                .should().dependOnClassesThat(aForeignLoggingApi())
                .because("library code logs through SLF4J only, so that the application chooses the logging backend; "
                        + "java.util.logging, System.Logger, Log4j, Commons Logging and Logback are its choices, not "
                        + "ours"));
    }

    public ArchRule staticFieldsAreFinal() {
        return rule(fields().that(areWrittenStaticFieldsOutsideExamples())
                .should().beFinal()
                .because("no mutable static state: shared things (a loaded native model, a session registry) are "
                        + "objects the application creates and passes in, so that two instances never interfere and "
                        + "tests stay deterministic"));
    }

    public ArchRule staticFieldsAreNotOfMutableTypes() {
        return rule(noFields().that(areWrittenStaticFieldsOutsideExamples())
                .should().haveRawType(aKnownMutableType())
                .because("a static final field of a mutable type is mutable static state all the same; use an "
                        + "immutable value (List.of, Map.of, a record) or an object passed in. Only the declared type "
                        + "is checked: a field declared as Map that holds a HashMap is not detected"));
    }

    public ArchRule everyClassBelongsToAKnownLayer() {
        return rule(classes().that().resideInAPackage(everything())
                .should().resideInAnyPackage(knownLayers())
                .because("every class belongs to a layer of DESIGN.md, so that the dependency rule covers it; a new "
                        + "top-level package needs a place in LayerRules first"));
    }

    // ---------------------------------------------------------------------------------------- packages below the root

    private String layer(String relative) {
        return root + "." + relative + "..";
    }

    private String everything() {
        return root + "..";
    }

    private String core() {
        return layer("core");
    }

    private String inference() {
        return layer("inference");
    }

    private String types() {
        return layer("types");
    }

    private String grammar() {
        return layer("inference.grammar");
    }

    private String orchestrate() {
        return layer("orchestrate");
    }

    private String facade() {
        return layer("orchestrate.facade");
    }

    private String spi() {
        return layer("orchestrate.spi");
    }

    private String ports() {
        return layer("orchestrate.ports");
    }

    private String loop() {
        return layer("orchestrate.loop");
    }

    private String internal() {
        return layer("orchestrate.internal");
    }

    private String adapters() {
        return layer("adapter");
    }

    private String temporal() {
        return layer("adapter.temporal");
    }

    private String mcp() {
        return layer("adapter.mcp");
    }

    private String openTelemetry() {
        return layer("adapter.opentelemetry");
    }

    private String micrometer() {
        return layer("adapter.micrometer");
    }

    private String tool() {
        return layer("tool");
    }

    private String springHealth() {
        return layer("adapter.spring.health");
    }

    /** Core, the facade, the tool layer, what an adapter may wire, and itself. */
    private String[] mcpAllowed() {
        return concat(wiredComponents(), core(), facade(), tool(), mcp());
    }

    /** Core, inference (the values the SPI hands over), observe, the facade, the SPI, and themselves. */
    private String[] observabilityAllowed() {
        return new String[] {core(), inference(), layer("observe"), facade(), spi(), openTelemetry(), micrometer()};
    }

    private String examples() {
        return layer("examples");
    }

    private String[] band() {
        return BAND.stream().map(this::layer).toArray(String[]::new);
    }

    private String[] engines() {
        return new String[] {layer("engine"), layer("testkit"), layer("tck")};
    }

    /** What the band may use, and what lies below orchestrate. */
    private String[] coreInferenceAndBand() {
        return concat(band(), core(), inference(), types());
    }

    private String[] engineAllowed() {
        return concat(engines(), core(), inference());
    }

    private String[] enginesAdaptersAndExamples() {
        return concat(engines(), adapters(), examples());
    }

    /**
     * Core, the facade, the SPI (narrowed to temporal by its own rule), the ports, the loops' shared settings (the
     * orchestrator's builder inherits its setters from there), everything an adapter may wire, and adapters
     * (whose dependencies on each other another rule forbids).
     */
    private String[] adapterAllowed() {
        return concat(wiredComponents(), core(), types(), facade(), spi(), ports(), loop(), adapters());
    }

    /** Where the types live that an adapter may reference and build, but not use. */
    private String[] wiredComponents() {
        return concat(concat(band(), inference()), engines());
    }

    private String[] knownLayers() {
        return concat(concat(band(), core(), inference(), types(), orchestrate(), adapters(), examples()), engines());
    }

    private static String[] concat(String[] packages, String... more) {
        return Stream.concat(Stream.of(packages), Stream.of(more)).toArray(String[]::new);
    }

    // ---------------------------------------------------------------------------------------------------- predicates

    /** Third-party libraries (and the JDK), which the band, engines and adapters may use freely. */
    private DescribedPredicate<JavaClass> outsideRoot() {
        return resideOutsideOfPackage(everything());
    }

    /**
     * Seed 004's agent events and their listener: values the facade hands an adapter while a chat request runs
     * ({@code Orchestrator.execute(request, stream, events, cancellation)}), so that it can show the turn as it happens.
     */
    private DescribedPredicate<JavaClass> areTheAgentEventProtocol() {
        String agent = root + ".orchestrate.agent.";
        return describe("are the agent events (" + agent + "AgentEvent and its records, AgentEventListener)",
                javaClass -> javaClass.getName().equals(agent + "AgentEventListener")
                        || javaClass.getName().equals(agent + "AgentEvent")
                        || javaClass.getName().startsWith(agent + "AgentEvent$"));
    }

    /** Everything except adapters and examples, which are the only code that owns a console. */
    private DescribedPredicate<JavaClass> areLibraryCode() {
        return resideInAPackage(everything())
                .and(resideOutsideOfPackage(adapters()))
                .and(resideOutsideOfPackage(examples()))
                .as("are library code (not adapters or examples)");
    }

    /**
     * Static fields that source code declared, outside the examples. Compiler-generated fields ({@code $VALUES},
     * {@code $SwitchMap$...}, {@code $assertionsDisabled}) are synthetic and skipped; enum constants and
     * {@code serialVersionUID} pass because they are final and of immutable types.
     */
    private DescribedPredicate<JavaField> areWrittenStaticFieldsOutsideExamples() {
        return describe("are static fields written in source outside the examples",
                field -> field.getModifiers().contains(JavaModifier.STATIC)
                        && !field.getModifiers().contains(JavaModifier.SYNTHETIC)
                        && resideInAPackage(everything()).test(field.getOwner())
                        && resideOutsideOfPackage(examples()).test(field.getOwner()));
    }

    private static DescribedPredicate<JavaClass> areNamedLikeGrammarCode() {
        return describe("have a simple name matching '" + GRAMMAR_CODE_NAME + "'",
                javaClass -> javaClass.getSimpleName().matches(GRAMMAR_CODE_NAME));
    }

    private static DescribedPredicate<JavaClass> aForeignLoggingApi() {
        return resideInAnyPackage(FOREIGN_LOGGING_PACKAGES).or(type(System.Logger.class));
    }

    /**
     * Calls an adapter must not make: a method of a wired component that does more than build or close it, except
     * the MCP adapter's calls into the tool layer.
     */
    private DescribedPredicate<JavaMethodCall> aNonWiringCallIntoAComponent() {
        DescribedPredicate<JavaClass> component = resideInAnyPackage(wiredComponents());
        DescribedPredicate<JavaClass> mcpAdapter = resideInAPackage(mcp());
        DescribedPredicate<JavaClass> toolLayer = resideInAPackage(tool());
        DescribedPredicate<JavaClass> observability = resideInAnyPackage(openTelemetry(), micrometer());
        DescribedPredicate<JavaClass> observed = resideInAnyPackage(inference(), layer("observe"));
        DescribedPredicate<JavaMethodCall> inference = anInferenceOfAnEngine();
        DescribedPredicate<JavaClass> healthIndicator = resideInAPackage(springHealth());
        DescribedPredicate<JavaClass> engineOrInference = resideInAnyPackage(concat(engines(), inference()));
        return describe("a method of an engine, inference or band type that is not builder(), a builder method, "
                        + "close() or an enum's constant API (the MCP adapter may call the tool layer; the "
                        + "observability adapters may read inference and observe values, but never call an engine; "
                        + "the Spring Boot adapter's health indicator may read an engine's state)",
                call -> component.test(call.getTargetOwner()) && !isWiringCall(call.getTarget())
                        && !(mcpAdapter.test(call.getOriginOwner()) && toolLayer.test(call.getTargetOwner()))
                        && !(observability.test(call.getOriginOwner()) && observed.test(call.getTargetOwner())
                                && !inference.test(call))
                        && !(healthIndicator.test(call.getOriginOwner())
                                && engineOrInference.test(call.getTargetOwner()) && isStateQuery(call.getTarget())));
    }

    /** A method that reports an engine's state: modelInfo(), health(), endpoint(), or a record's accessor. */
    private static boolean isStateQuery(MethodCallTarget target) {
        return target.getRawParameterTypes().isEmpty()
                && (ENGINE_STATE_API.contains(target.getName())
                || target.getOwner().isAssignableTo(Record.class));
    }

    /** A call of {@code infer} on the inference layer's {@code Engine} or a type implementing it. */
    private DescribedPredicate<JavaMethodCall> anInferenceOfAnEngine() {
        String engine = root + ".inference.Engine";
        return describe("a call of infer on an Engine",
                call -> call.getTarget().getName().equals("infer")
                        && (call.getTargetOwner().getName().equals(engine)
                        || call.getTargetOwner().getAllRawInterfaces().stream()
                                .anyMatch(type -> type.getName().equals(engine))));
    }

    private static boolean isWiringCall(MethodCallTarget target) {
        return isStaticBuilderFactory(target)
                || isBuilder(target.getOwner())
                || (target.getName().equals("close") && target.getRawParameterTypes().isEmpty())
                || (target.getOwner().isEnum() && ENUM_CONSTANT_API.contains(target.getName()));
    }

    private static boolean isStaticBuilderFactory(MethodCallTarget target) {
        return target.getName().equals("builder")
                && target.resolveMember().map(method -> method.getModifiers().contains(JavaModifier.STATIC))
                        .orElse(false);
    }

    /**
     * A builder is named *Builder and has a build() without parameters. The second condition keeps components that
     * merely end in Builder, such as the context layer's ContextBuilder, from passing as builders.
     */
    private static boolean isBuilder(JavaClass type) {
        return type.getSimpleName().endsWith("Builder")
                && type.getAllMethods().stream()
                        .anyMatch(method -> method.getName().equals("build")
                                && method.getRawParameterTypes().isEmpty());
    }

    /** JDK types whose instances can change: a static final field of one of them is still shared mutable state. */
    private static DescribedPredicate<JavaClass> aKnownMutableType() {
        return describe("a known mutable type (an array, a JDK collection or map class, an atomic, StringBuilder, "
                        + "StringBuffer, Random, ThreadLocal, Date, Calendar, BitSet or an Executor)",
                LayerRules::isKnownMutableType);
    }

    private static boolean isKnownMutableType(JavaClass type) {
        return type.isArray()
                || isJdkCollectionClass(type)
                || type.getPackageName().equals("java.util.concurrent.atomic")
                || MUTABLE_JDK_TYPES.stream().anyMatch(type::isAssignableTo);
    }

    /** Every concrete or abstract JDK collection or map class is mutable (immutable ones are not public classes). */
    private static boolean isJdkCollectionClass(JavaClass type) {
        return !type.isInterface()
                && type.getPackageName().startsWith("java.")
                && (type.isAssignableTo(Collection.class) || type.isAssignableTo(Map.class));
    }

    // -------------------------------------------------------------------------------------------------------- slices

    /**
     * Slices of the modules whose name passes {@code included}: one per band layer, per engine ({@code engine.x},
     * {@code testkit}) or per adapter ({@code adapter.x}); every other class is left out.
     */
    private SliceAssignment modulesWhere(String description, Predicate<String> included) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                return moduleOf(javaClass).filter(included)
                        .map(module -> SliceIdentifier.of(module))
                        .orElseGet(SliceIdentifier::ignore);
            }

            @Override
            public String getDescription() {
                return description;
            }
        };
    }

    /**
     * The module a class belongs to, named by its package below the root: {@code core}, {@code context},
     * {@code testkit}, {@code engine.llamacpp}, {@code adapter.cli}; empty outside the root.
     */
    private Optional<String> moduleOf(JavaClass javaClass) {
        String packageName = javaClass.getPackageName();
        if (!packageName.startsWith(root + ".")) {
            return Optional.empty();
        }
        String[] parts = packageName.substring(root.length() + 1).split("\\.");
        boolean grouped = (parts[0].equals("engine") || parts[0].equals("adapter")) && parts.length > 1;
        return Optional.of(grouped ? parts[0] + "." + parts[1] : parts[0]);
    }

    private boolean isEngineModule(String module) {
        return module.startsWith("engine.") || module.equals("testkit");
    }

    /** Allows an empty selection, because most modules are still empty (see the class comment). */
    private static ArchRule rule(ArchRule rule) {
        return rule.allowEmptyShould(true);
    }
}
