/**
 * Test fixtures for the architecture rules, never production code. {@code violating} mirrors the real package layout
 * with classes that each break one rule (named after what they do wrong, for example {@code CoreUsingInference}) and
 * a few compliant ones beside them; {@code compliant} is a small system that follows every rule, including the cases
 * that must not be false positives (enum constants, {@code serialVersionUID}, a switch over an enum, a static final
 * SLF4J logger, an adapter that wires through builders and talks to the facade).
 */
package dev.pagantic.archfixture;
