package dev.pagantic.archfixture.violating.inference;

/** An inference enum that an adapter switches over (javac then calls values() and ordinal()). */
public enum FinishReason {
    STOP,
    LENGTH
}
