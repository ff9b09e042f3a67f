package dev.pagantic.archfixture.violating.orchestrate.facade;

/** The fixture's facade response. */
public record SystemResponse(String text) {
}
