-- Rows written at request rate get time-ordered ids (UUID version 7: the first 48 bits are the Unix time in
-- milliseconds, the rest random but for the version and variant bits), so a new row's primary-key entry lands
-- at the right edge of its index, which stays in memory, instead of on a random page of an index larger than
-- memory. The service makes most of them itself; this function makes the ones a statement makes (webhook
-- deliveries, back-channel logouts). gen_random_uuid() gives the random bits and the variant; the version
-- nibble goes from 4 (0100) to 7 (0111) by setting bits 52 and 53 (set_bit counts each byte from its lowest bit).
CREATE FUNCTION time_ordered_uuid() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
