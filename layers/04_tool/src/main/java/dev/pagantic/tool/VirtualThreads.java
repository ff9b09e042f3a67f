package dev.pagantic.tool;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * Virtual threads where the running JVM offers them (Java 21 and later), found at run time: the library is compiled
 * for Java 17, which has none, so the Java 21 methods ({@code Thread.ofVirtual()}, {@code Thread.Builder.name},
 * {@code Thread.Builder.factory()}, {@code Executors.newThreadPerTaskExecutor}) are looked up once by reflection.
 */
final class VirtualThreads {

    private static final @Nullable Method OF_VIRTUAL;
    private static final @Nullable Method NAME;
    private static final @Nullable Method FACTORY;
    private static final @Nullable Method PER_TASK_EXECUTOR;

    static {
        Method ofVirtual = null;
        Method name = null;
        Method factory = null;
        Method perTaskExecutor = null;
        if (Runtime.version().feature() >= 21) { // 19 and 20 have them only as a preview
            try {
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                ofVirtual = Thread.class.getMethod("ofVirtual");
                name = builder.getMethod("name", String.class, long.class);
                factory = builder.getMethod("factory");
                perTaskExecutor = Executors.class.getMethod("newThreadPerTaskExecutor", ThreadFactory.class);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError notOffered) {
                ofVirtual = null;
            }
        }
        OF_VIRTUAL = ofVirtual;
        NAME = name;
        FACTORY = factory;
        PER_TASK_EXECUTOR = perTaskExecutor;
    }

    private VirtualThreads() {
    }

    /** Whether this JVM offers virtual threads. */
    static boolean available() {
        return OF_VIRTUAL != null;
    }

    /**
     * An executor that starts a new virtual thread per task, named {@code prefix-1}, {@code prefix-2}, ...; empty when
     * the JVM has no virtual threads.
     */
    static Optional<ExecutorService> perTaskExecutor(String prefix) {
        if (!available()) {
            return Optional.empty();
        }
        try {
            Object builder = NAME.invoke(OF_VIRTUAL.invoke(null), prefix + "-", 1L);
            ThreadFactory factory = (ThreadFactory) FACTORY.invoke(builder);
            return Optional.of((ExecutorService) PER_TASK_EXECUTOR.invoke(null, factory));
        } catch (IllegalAccessException | InvocationTargetException | RuntimeException refused) {
            return Optional.empty(); // for instance a security policy: platform threads serve as well
        }
    }
}
