package dev.pagantic.archfixture.compliant.orchestrate.facade;

/** The facade request. */
public record SystemRequest(String prompt) {
}
