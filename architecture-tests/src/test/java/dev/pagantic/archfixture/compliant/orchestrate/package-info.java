/** The fixture's orchestrate root: documentation only, every class lives in a room. */
@NullMarked
package dev.pagantic.archfixture.compliant.orchestrate;

import org.jspecify.annotations.NullMarked;
