package dev.pagantic.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * Every rule of {@link LayerRules} holds on the production classes of all modules (the test classpath holds the jars
 * or class folders of every module). Test classes, the fixtures included, are not imported.
 */
class ArchitectureTest {

    private static final String ROOT = "dev.pagantic";

    private static final JavaClasses PRODUCTION = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    private static final LayerRules RULES = LayerRules.forRoot(ROOT);

    @Test
    void theImportSeesTheProductionClassesAndNoTestClasses() {
        // The rules allow empty selections, so this guards against a wrong root or classpath passing vacuously.
        assertThat(PRODUCTION.contain("dev.pagantic.core.Message")).isTrue();
        assertThat(PRODUCTION.contain("dev.pagantic.inference.Engine")).isTrue();
        assertThat(PRODUCTION.contain("dev.pagantic.types.OutputType")).isTrue();
        assertThat(PRODUCTION.stream().map(JavaClass::getPackageName))
                .noneMatch(name -> name.startsWith("dev.pagantic.archfixture"))
                .noneMatch(name -> name.startsWith("dev.pagantic.architecture"));
    }

    @Test
    void coreDependsOnlyOnTheJdk() {
        RULES.coreDependsOnlyOnTheJdk().check(PRODUCTION);
    }

    @Test
    void inferenceDependsOnlyOnCore() {
        RULES.inferenceDependsOnlyOnCore().check(PRODUCTION);
    }

    @Test
    void typesDependsOnlyOnCore() {
        RULES.typesDependsOnlyOnCore().check(PRODUCTION);
    }

    @Test
    void bandLayersDependOnlyOnCoreAndInference() {
        RULES.bandLayersDependOnlyOnCoreAndInference().check(PRODUCTION);
    }

    @Test
    void bandLayersDoNotDependOnEachOther() {
        RULES.bandLayersDoNotDependOnEachOther().check(PRODUCTION);
    }

    @Test
    void nothingBelowOrchestrateDependsOnIt() {
        RULES.nothingBelowOrchestrateDependsOnIt().check(PRODUCTION);
    }

    @Test
    void orchestrateUsesEnginesOnlyThroughTheInferenceSpi() {
        RULES.orchestrateUsesEnginesOnlyThroughTheInferenceSpi().check(PRODUCTION);
    }

    @Test
    void orchestrateRootHoldsOnlyItsPackageDocumentation() {
        RULES.orchestrateRootHoldsOnlyItsPackageDocumentation().check(PRODUCTION);
    }

    @Test
    void onlyTheInferenceCallCallsAnEngine() {
        RULES.onlyTheInferenceCallCallsAnEngine().check(PRODUCTION);
    }

    @Test
    void orchestrateInternalsStayInsideOrchestrate() {
        RULES.orchestrateInternalsStayInsideOrchestrate().check(PRODUCTION);
    }

    @Test
    void orchestrateRoomsDoNotDependOnTheFacade() {
        RULES.orchestrateRoomsDoNotDependOnTheFacade().check(PRODUCTION);
    }

    @Test
    void portsDependOnlyOnCoreInferenceAndTheBand() {
        RULES.portsDependOnlyOnCoreInferenceAndTheBand().check(PRODUCTION);
    }

    @Test
    void enginesDependOnlyOnCoreAndInference() {
        RULES.enginesDependOnlyOnCoreAndInference().check(PRODUCTION);
    }

    @Test
    void enginesDoNotDependOnEachOther() {
        RULES.enginesDoNotDependOnEachOther().check(PRODUCTION);
    }

    @Test
    void adaptersDependOnlyOnTheFacadeCoreAndWiredComponents() {
        RULES.adaptersDependOnlyOnTheFacadeCoreAndWiredComponents().check(PRODUCTION);
    }

    @Test
    void onlyTheTemporalAdapterUsesTheInterceptionSpi() {
        RULES.onlyTheTemporalAdapterUsesTheInterceptionSpi().check(PRODUCTION);
    }

    @Test
    void adaptersOnlyBuildAndCloseWiredComponents() {
        RULES.adaptersOnlyBuildAndCloseWiredComponents().check(PRODUCTION);
    }

    @Test
    void adaptersDoNotDependOnEachOther() {
        RULES.adaptersDoNotDependOnEachOther().check(PRODUCTION);
    }

    @Test
    void theMcpAdapterUsesOnlyCoreTheFacadeTheToolLayerAndWhatItWires() {
        RULES.theMcpAdapterUsesOnlyCoreTheFacadeTheToolLayerAndWhatItWires().check(PRODUCTION);
    }

    @Test
    void grammarCodeLivesOnlyInInferenceGrammar() {
        RULES.grammarCodeLivesOnlyInInferenceGrammar().check(PRODUCTION);
    }

    @Test
    void onlyInferenceNamesClassesGbnf() {
        RULES.onlyInferenceNamesClassesGbnf().check(PRODUCTION);
    }

    @Test
    void packagesAreFreeOfCycles() {
        RULES.packagesAreFreeOfCycles().check(PRODUCTION);
    }

    @Test
    void libraryCodeNeverWritesToTheConsole() {
        RULES.libraryCodeNeverWritesToTheConsole().check(PRODUCTION);
    }

    @Test
    void libraryCodeLogsThroughSlf4jOnly() {
        RULES.libraryCodeLogsThroughSlf4jOnly().check(PRODUCTION);
    }

    @Test
    void staticFieldsAreFinal() {
        RULES.staticFieldsAreFinal().check(PRODUCTION);
    }

    @Test
    void staticFieldsAreNotOfMutableTypes() {
        RULES.staticFieldsAreNotOfMutableTypes().check(PRODUCTION);
    }

    @Test
    void everyClassBelongsToAKnownLayer() {
        RULES.everyClassBelongsToAKnownLayer().check(PRODUCTION);
    }
}
