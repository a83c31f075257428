package dev.georesolver.bus;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageCodec;
import io.vertx.core.json.JsonObject;

import java.util.function.Function;

/**
 * Codec for an immutable message record: inside the JVM the same instance is delivered (no copy, no
 * encoding); across nodes it travels as its JSON form.
 *
 * @param <T> the record type; must be deeply immutable
 */
public final class RecordCodec<T> implements MessageCodec<T, T> {

  private final Class<T> type;
  private final Function<T, JsonObject> toJson;
  private final Function<JsonObject, T> fromJson;

  public RecordCodec(Class<T> type, Function<T, JsonObject> toJson, Function<JsonObject, T> fromJson) {
    this.type = type;
    this.toJson = toJson;
    this.fromJson = fromJson;
  }

  /** The record class this codec handles. */
  public Class<T> type() {
    return type;
  }

  @Override
  public void encodeToWire(Buffer buffer, T value) {
    Buffer json = toJson.apply(value).toBuffer();
    buffer.appendInt(json.length()).appendBuffer(json);
  }

  @Override
  public T decodeFromWire(int pos, Buffer buffer) {
    int len = buffer.getInt(pos);
    return fromJson.apply(buffer.getBuffer(pos + 4, pos + 4 + len).toJsonObject());
  }

  @Override
  public T transform(T value) {
    return value;
  }

  @Override
  public String name() {
    return "georesolver." + type.getSimpleName();
  }

  @Override
  public byte systemCodecID() {
    return -1;
  }
}
