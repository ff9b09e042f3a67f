package dev.pagantic.archfixture.compliant.core;

/** An enum: its constants and the compiler's $VALUES are static fields that the mutable-state rules must accept. */
public enum Role {
    SYSTEM,
    USER
}
