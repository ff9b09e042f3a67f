package dev.pagantic.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.lang.ArchRule;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The catalogue itself: complete, explained, and never over-broad on code that follows the design. */
class LayerRulesTest {

    private static final Map<String, ArchRule> COMPLIANT_RULES = LayerRules.forRoot(Fixtures.COMPLIANT).all();

    private static final JavaClasses COMPLIANT = Fixtures.importRoot(Fixtures.COMPLIANT);

    @Test
    void allListsEveryRule() {
        // The compliant-fixture test below iterates all(); a rule missing there would escape that check.
        String[] ruleMethods = Arrays.stream(LayerRules.class.getDeclaredMethods())
                .filter(method -> Modifier.isPublic(method.getModifiers()))
                .filter(method -> method.getReturnType() == ArchRule.class && method.getParameterCount() == 0)
                .map(Method::getName)
                .toArray(String[]::new);
        assertThat(COMPLIANT_RULES.keySet()).containsExactlyInAnyOrder(ruleMethods);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("compliantRules")
    void everyRuleExplainsWhyItExists(String name, ArchRule rule) {
        assertThat(rule.getDescription()).contains(", because ");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("compliantRules")
    void everyRuleAcceptsTheCompliantFixture(String name, ArchRule rule) {
        // Refusing empty selections here proves that each rule looked at some compliant classes.
        rule.allowEmptyShould(false).check(COMPLIANT);
    }

    static Stream<Arguments> compliantRules() {
        return COMPLIANT_RULES.entrySet().stream().map(rule -> Arguments.of(rule.getKey(), rule.getValue()));
    }
}
