package dev.pagantic.archfixture.compliant.inference;

/** An inference enum that engines and adapters switch over. */
public enum FinishReason {
    STOP,
    LENGTH
}
