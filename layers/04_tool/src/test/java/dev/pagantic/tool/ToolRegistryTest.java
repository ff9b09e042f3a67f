package dev.pagantic.tool;

import static dev.pagantic.tool.Failures.assertConfigInvalid;
import static dev.pagantic.tool.TestTools.returning;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ToolDefinition;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ToolRegistryTest {

    private final Tool search = returning("search", "results");
    private final Tool calc = returning("calc", "42");
    private final Tool mail = returning("mail", "sent");

    @Test
    void toolsKeepTheirRegistrationOrder() {
        ToolRegistry registry = ToolRegistry.of(search, calc, mail);

        assertThat(registry.names()).containsExactly("search", "calc", "mail");
        assertThat(registry.definitions()).extracting(ToolDefinition::name).containsExactly("search", "calc", "mail");
        assertThat(registry.tools()).containsExactly(search, calc, mail);
        assertThat(registry.size()).isEqualTo(3);
    }

    @Test
    void aToolIsLookedUpByName() {
        ToolRegistry registry = ToolRegistry.of(search, calc);

        assertThat(registry.lookup("calc")).contains(calc);
        assertThat(registry.lookup("weather")).isEmpty();
        assertThat(registry.contains("search")).isTrue();
    }

    @Test
    void twoToolsWithTheSameNameAreRefused() {
        assertThat(assertConfigInvalid(() -> ToolRegistry.of(search, returning("search", "other"))).getMessage())
                .contains("'search'");
    }

    @Test
    void definitionsListOnlyTheToolsAvailableNow() {
        AtomicReference<Availability> calcAvailability = new AtomicReference<>(Availability.AVAILABLE);
        Tool flaky = Tool.builder(TestTools.noArgs("calc")).handler((ctx, args) -> "42")
                .availability(calcAvailability::get).build();
        Tool broken = Tool.builder(TestTools.noArgs("broken")).handler((ctx, args) -> "")
                .availability(() -> {
                    throw new IllegalStateException("health check crashed");
                }).build();
        ToolRegistry registry = ToolRegistry.of(search, flaky, broken);

        assertThat(registry.availableNames()).containsExactly("search", "calc");
        calcAvailability.set(Availability.unavailable("backend down"));

        assertThat(registry.definitions()).extracting(ToolDefinition::name).containsExactly("search");
        assertThat(registry.names()).containsExactly("search", "calc", "broken");
    }

    @Test
    void aWhitelistedViewHoldsOnlyTheAllowedToolsInRegistrationOrder() {
        ToolRegistry registry = ToolRegistry.of(search, calc, mail);

        ToolRegistry view = registry.allowOnly(List.of("mail", "search"));

        assertThat(view.names()).containsExactly("search", "mail");
        assertThat(view.lookup("calc")).isEmpty();
        assertThat(view.isHidden("calc")).isTrue();
        assertThat(view.isHidden("weather")).isFalse();
        assertThat(registry.names()).containsExactly("search", "calc", "mail");
    }

    @Test
    void aWhitelistNamingAnUnknownToolIsRefused() {
        ToolRegistry registry = ToolRegistry.of(search, calc);

        assertThat(assertConfigInvalid(() -> registry.allowOnly("search", "serach")).getMessage())
                .contains("'serach'");
        assertConfigInvalid(() -> registry.allowOnly("search").allowOnly("calc"));
    }

    @Test
    void anEmptyWhitelistHidesEverything() {
        ToolRegistry view = ToolRegistry.of(search, calc).allowOnly(List.of());

        assertThat(view.isEmpty()).isTrue();
        assertThat(view.definitions()).isEmpty();
    }

    @Test
    void returnedCollectionsAreImmutable() {
        ToolRegistry registry = ToolRegistry.of(search);

        assertThatThrownBy(() -> registry.names().add("x")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> registry.tools().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> registry.definitions().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aToolBuiltWithoutHandlerIsRefused() {
        assertConfigInvalid(() -> Tool.builder(TestTools.noArgs("x")).build());
        assertConfigInvalid(() -> Tool.builder(TestTools.noArgs("x")).handler((c, a) -> "")
                .timeout(java.time.Duration.ZERO).build());
    }

    @Test
    void availabilityMustExplainWhyAToolIsUnavailable() {
        assertConfigInvalid(() -> Availability.unavailable(" "));
        assertThat(Availability.unavailable("down").reason()).isEqualTo("down");
    }

    @Test
    void onlyReadingAndPureToolsAreParallelSafe() {
        assertThat(ToolSafety.PURE.parallelSafe()).isTrue();
        assertThat(ToolSafety.READ_ONLY.parallelSafe()).isTrue();
        assertThat(ToolSafety.of(SideEffect.WRITE, true).parallelSafe()).isFalse();
        assertThat(ToolSafety.of(SideEffect.EXTERNAL, false).parallelSafe()).isFalse();
        assertThat(ToolSafety.UNKNOWN.parallelSafe()).isFalse();
        assertThat(ToolSafety.UNKNOWN.idempotent()).isFalse();
    }
}
