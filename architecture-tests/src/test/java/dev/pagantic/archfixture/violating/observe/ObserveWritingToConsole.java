package dev.pagantic.archfixture.violating.observe;

/** Breaks "library code never writes to the console". */
public final class ObserveWritingToConsole {

    public void record(String event) {
        System.out.println(event);
    }
}
