package dev.pagantic.validate;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A named check on a text (a model's output, or a user's input for a guardrail) that passes, or fails with a reason.
 * Rules are deterministic and side-effect free; {@link Rules} has the common ones and {@link PromptInjectionDetector}
 * is one too.
 *
 * <pre>{@code
 * Rule mentionsPrice = Rule.of("mentions-price", text -> text.contains("$"), "the answer must state a price");
 * }</pre>
 */
public interface Rule {

    /** A short, stable name, reported with every result (for example {@code max-length}). */
    String name();

    /** Checks the text. Must not return null; a rule that cannot decide should fail with a reason saying why. */
    RuleResult check(String text);

    /**
     * A rule from a predicate: passes when the predicate holds, otherwise fails with the fixed reason.
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the name or reason is blank
     */
    static Rule of(String name, Predicate<String> passes, String reason) {
        Objects.requireNonNull(passes, "passes");
        requireText(reason, "reason");
        return of(name, text -> passes.test(text) ? Optional.empty() : Optional.of(reason));
    }

    /**
     * A rule from a function that returns the failure reason, or empty when the text passes; the reason may depend
     * on the text (for example "4 200 characters, more than 4 000").
     *
     * @throws PaganticException {@code CONFIG_INVALID} when the name is blank
     */
    static Rule of(String name, Function<String, Optional<String>> failureReason) {
        requireText(name, "name");
        Objects.requireNonNull(failureReason, "failureReason");
        return new Rule() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public RuleResult check(String text) {
                Optional<String> reason = failureReason.apply(Objects.requireNonNull(text, "text"));
                return reason.map(why -> RuleResult.fail(name, why)).orElseGet(() -> RuleResult.pass(name));
            }

            @Override
            public String toString() {
                return "Rule[" + name + "]";
            }
        };
    }

    private static void requireText(String value, String what) {
        if (value == null || value.isBlank()) {
            throw PaganticException.of(ErrorCode.CONFIG_INVALID, "a rule's " + what + " must not be blank");
        }
    }
}
