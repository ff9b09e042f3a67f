package dev.pagantic.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.List;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The two fixture roots and assertions on what a rule reports about them. The fixtures are test classes, so the
 * production import (which excludes tests) never sees them; here they are imported without that option.
 */
final class Fixtures {

    /** Deliberately violating classes, one or more per rule, mirroring the real package layout. */
    static final String VIOLATING = "dev.pagantic.archfixture.violating";

    /** Classes that follow every rule, so that no rule is trivially over-broad. */
    static final String COMPLIANT = "dev.pagantic.archfixture.compliant";

    private Fixtures() {
    }

    static JavaClasses importRoot(String root) {
        return new ClassFileImporter().importPackages(root);
    }

    /** Asserts that the rule fails on {@code classes} and that its report names every offender. */
    static void assertReports(ArchRule rule, JavaClasses classes, Class<?>... offenders) {
        EvaluationResult result = rule.evaluate(classes);
        assertThat(result.hasViolation()).as("'%s' reports a violation", rule.getDescription()).isTrue();
        for (Class<?> offender : offenders) {
            assertThat(details(result)).as("the report of '%s'", rule.getDescription()).anyMatch(naming(offender));
        }
    }

    /** Asserts that the rule's report, if any, never names {@code innocent}. */
    static void assertDoesNotReport(ArchRule rule, JavaClasses classes, Class<?> innocent) {
        assertThat(details(rule.evaluate(classes))).as("the report of '%s'", rule.getDescription())
                .noneMatch(naming(innocent));
    }

    private static List<String> details(EvaluationResult result) {
        return result.getFailureReport().getDetails();
    }

    /** A line names a class when its full name appears, not followed by more of an identifier. */
    private static Predicate<String> naming(Class<?> type) {
        Pattern name = Pattern.compile(Pattern.quote(type.getName()) + "(?!\\w)");
        return line -> name.matcher(line).find();
    }
}
