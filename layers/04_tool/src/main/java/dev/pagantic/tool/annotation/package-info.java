/**
 * Annotations that turn methods of plain Java objects into tools: {@link dev.pagantic.tool.annotation.Tool} on the
 * method, {@link dev.pagantic.tool.annotation.Param} on its parameters (and on record components). They mirror
 * LangChain4j's {@code @Tool} and {@code @P}. The package holds only the annotations, so that it depends on nothing;
 * {@code dev.pagantic.tool.AnnotatedTools} reads them.
 */
@NullMarked
package dev.pagantic.tool.annotation;

import org.jspecify.annotations.NullMarked;
