package dev.georesolver.bus;

import io.vertx.core.eventbus.EventBus;

import java.util.List;

/** Registers the message records' codecs as default codecs on an event bus. */
public final class Codecs {

  private static final List<RecordCodec<?>> ALL = List.of(
      new RecordCodec<>(ResolveRequest.class, ResolveRequest::toJson, ResolveRequest::fromJson),
      new RecordCodec<>(ResolveResult.class, ResolveResult::toJson, ResolveResult::fromJson),
      new RecordCodec<>(Redelivery.class, Redelivery::toJson, Redelivery::fromJson),
      new RecordCodec<>(TierRequest.class, TierRequest::toJson, TierRequest::fromJson),
      new RecordCodec<>(TierReply.class, TierReply::toJson, TierReply::fromJson),
      new RecordCodec<>(DedupeClaim.class, DedupeClaim::toJson, DedupeClaim::fromJson),
      new RecordCodec<>(DedupeVerdict.class, DedupeVerdict::toJson, DedupeVerdict::fromJson),
      new RecordCodec<>(DedupeComplete.class, DedupeComplete::toJson, DedupeComplete::fromJson),
      new RecordCodec<>(IndexEntry.class, IndexEntry::toJson, IndexEntry::fromJson),
      new RecordCodec<>(IndexQuery.class, IndexQuery::toJson, IndexQuery::fromJson),
      new RecordCodec<>(DebtBatch.class, DebtBatch::toJson, DebtBatch::fromJson),
      new RecordCodec<>(CacheWrites.class, CacheWrites::toJson, CacheWrites::fromJson),
      new RecordCodec<>(AuditBatch.class, AuditBatch::toJson, AuditBatch::fromJson),
      new RecordCodec<>(ShadowOffer.class, ShadowOffer::toJson, ShadowOffer::fromJson));

  private Codecs() {}

  /** Registers every codec; a codec already registered on this bus is left as it is. */
  public static void registerAll(EventBus bus) {
    for (RecordCodec<?> c : ALL) {
      register(bus, c);
    }
  }

  private static <T> void register(EventBus bus, RecordCodec<T> c) {
    try {
      bus.registerDefaultCodec(c.type(), c);
    } catch (IllegalStateException alreadyRegistered) {
      // Several deployments on one Vertx (tests) share the bus: the first registration stands.
    }
  }
}
