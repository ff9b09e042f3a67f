package dev.pagantic.archfixture.violating.orchestrate.facade;

/** The fixture's facade request. */
public record SystemRequest(String prompt) {
}
