package dev.pagantic.archfixture.compliant.orchestrate.facade;

/** The facade response. */
public record SystemResponse(String text) {
}
