package javafx.util;

/**
 * Stand-in for JavaFX's Pair, which the reference's agent parameter classes import: the JDK on
 * the build machine has no JavaFX, and the harness never calls these classes.
 */
public class Pair<K, V> {
    private final K key;
    private final V value;

    public Pair(K key, V value) {
        this.key = key;
        this.value = value;
    }

    public K getKey() { return key; }

    public V getValue() { return value; }
}
