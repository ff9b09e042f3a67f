/**
 * Helpers shared by pagantic's own modules; not part of the supported API and free to change between releases.
 *
 * <p>{@link dev.pagantic.core.internal.JsonValues} makes immutable deep copies of JSON-like values (maps with string
 * keys, lists, strings, numbers, booleans, null), preserving key order. Core's records use it for tool arguments and
 * schema defaults, and the inference layer uses it for request options, so that a value type never aliases a
 * caller's mutable collection. It lives here rather than in {@code dev.pagantic.core} so that the public vocabulary
 * stays small; like the rest of core it depends on the JDK only.
 */
@NullMarked
package dev.pagantic.core.internal;

import org.jspecify.annotations.NullMarked;
