package dev.pagantic.validate;

import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints the entries tests publish through JUnit's {@code TestReporter} (such as the prompt-injection corpus's
 * precision and recall) to the test output: Maven Surefire records them nowhere by itself. Test code only, registered
 * through {@code META-INF/services}.
 */
public final class ReportEntryPrinter implements TestExecutionListener {

    @Override
    public void reportingEntryPublished(TestIdentifier testIdentifier, ReportEntry entry) {
        entry.getKeyValuePairs().forEach((key, value) ->
                System.out.println("[report] " + testIdentifier.getDisplayName() + " | " + key + ": " + value));
    }
}
