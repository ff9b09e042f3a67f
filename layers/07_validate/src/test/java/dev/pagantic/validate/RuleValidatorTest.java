package dev.pagantic.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class RuleValidatorTest {

    private final RuleValidator validator = RuleValidator.builder()
            .rule(Rules.maxLength(10))
            .rule(Rules.requiredPattern("has-digit", Pattern.compile("\\d")))
            .rule(Rules.forbiddenPattern("no-sorry", Pattern.compile("(?i)sorry")))
            .rule(Rules.notBlank())
            .build();

    @Test
    void reportsEveryFailureWithItsReasonInDeclarationOrder() {
        RuleReport report = validator.validate("Sorry, no numbers here");

        assertThat(report.passed()).isFalse();
        assertThat(report.failures()).extracting(RuleResult::rule)
                .containsExactly("max-length", "has-digit", "no-sorry");
        assertThat(report.failures()).extracting(RuleResult::reason).containsExactly(
                "22 characters, more than the maximum of 10",
                "required pattern /\\d/ not found",
                "forbidden pattern /(?i)sorry/ found: \"Sorry\" at index 0");
        assertThat(report.passCount()).isEqualTo(1);
        assertThat(report.failCount()).isEqualTo(3);
    }

    @Test
    void passRateIsTheFractionOfRulesPassedForConfidenceSourceValidation() {
        assertThat(validator.validate("answer 42").passRate()).isEqualTo(1.0);
        assertThat(validator.validate("Sorry 4").passRate()).isCloseTo(0.75, within(1e-12));
        assertThat(validator.validate("Sorry, no numbers here").passRate()).isCloseTo(0.25, within(1e-12));
        assertThat(RuleReport.CONFIDENCE_SOURCE).isEqualTo("validation");
        assertThat(new RuleReport(List.of()).passRate()).isEqualTo(1.0);
    }

    @Test
    void requireThrowsRuleFailedNamingEveryFailedRule() {
        assertThatThrownBy(() -> validator.require("Sorry, no numbers here"))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.VALIDATION_RULE_FAILED);
                    assertThat(e.retryable()).isTrue();
                    assertThat(e.details().get("failed_rules"))
                            .isEqualTo(List.of("max-length", "has-digit", "no-sorry"));
                    List<Object> keys = List.copyOf(((Map<?, ?>) e.details().get("reasons")).keySet());
                    assertThat(keys).isEqualTo(List.of("max-length", "has-digit", "no-sorry"));
                    assertThat(e.getMessage()).contains("3 of 4 rules failed").contains("has-digit: required pattern");
                });
        assertThat(validator.require("ok 1").passed()).isTrue();
    }

    @Test
    void aRuleThatThrowsIsRecordedAsItsOwnFailure() {
        Rule broken = Rule.of("broken", text -> {
            throw new IllegalStateException("boom");
        });
        RuleReport report = RuleValidator.of(broken, Rules.notBlank()).validate("text");

        assertThat(report.results()).hasSize(2);
        assertThat(report.failures()).singleElement().satisfies(failure -> {
            assertThat(failure.rule()).isEqualTo("broken");
            assertThat(failure.reason()).contains("rule threw").contains("boom");
        });
    }

    @Test
    void predicateRulesFailWithTheirFixedReason() {
        Rule price = Rule.of("mentions-price", text -> text.contains("$"), "the answer must state a price");
        assertThat(price.check("costs $3")).isEqualTo(RuleResult.pass("mentions-price"));
        assertThat(price.check("costs three")).isEqualTo(
                RuleResult.fail("mentions-price", "the answer must state a price"));
    }

    @Test
    void builderRefusesNoRulesAndDuplicateNames() {
        assertThatThrownBy(() -> RuleValidator.builder().build())
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> RuleValidator.of(Rules.notBlank(), Rules.notBlank()))
                .isInstanceOfSatisfying(PaganticException.class, e -> {
                    assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID);
                    assertThat(e.getMessage()).contains("not-blank");
                });
        assertThatThrownBy(() -> Rule.of(" ", text -> true, "reason"))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> RuleResult.fail("r", " "))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }
}
