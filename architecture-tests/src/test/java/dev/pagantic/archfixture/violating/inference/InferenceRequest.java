package dev.pagantic.archfixture.violating.inference;

/** A plain inference type that other fixtures use. */
public record InferenceRequest(String prompt) {
}
