package dev.pagantic.adapter.spring;

import dev.pagantic.tool.Tool;
import dev.pagantic.tool.ToolRegistry;
import java.lang.reflect.Method;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

/**
 * Finds the application's tools: every bean whose class declares a method annotated
 * {@link dev.pagantic.tool.annotation.Tool @Tool}, and every bean that is a {@link Tool}. The bean's class is read
 * from its definition, so beans without tools are never created early.
 *
 * <p>A proxied bean (a {@code @Transactional} service, say) is registered through its target: the proxy's subclass
 * hides the annotations of the methods it overrides, so the tool calls the target's methods directly and the proxy's
 * advice does not apply to them.
 */
final class ToolBeans {

    private ToolBeans() {
    }

    /** The registry of the context's tools, or null when it has none. */
    static @Nullable ToolRegistry registry(ConfigurableListableBeanFactory beans) {
        ToolRegistry.Builder registry = ToolRegistry.builder();
        boolean any = false;
        for (String name : beans.getBeanDefinitionNames()) {
            if (ScopedProxyUtils.isScopedTarget(name) || beans.getBeanDefinition(name).isAbstract()) {
                continue;
            }
            Class<?> type = beans.getType(name, false);
            if (type == null) {
                continue;
            }
            if (Tool.class.isAssignableFrom(type)) {
                registry.add((Tool) beans.getBean(name));
                any = true;
            } else if (hasToolMethods(ClassUtils.getUserClass(type))) {
                Object bean = beans.getBean(name);
                Object target = AopProxyUtils.getSingletonTarget(bean);
                registry.addAnnotated(target != null ? target : bean);
                any = true;
            }
        }
        return any ? registry.build() : null;
    }

    private static boolean hasToolMethods(Class<?> type) {
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Method method : c.getDeclaredMethods()) {
                if (method.isAnnotationPresent(dev.pagantic.tool.annotation.Tool.class)) {
                    return true;
                }
            }
        }
        return false;
    }
}
