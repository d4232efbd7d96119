-- A re-send of a failed code that the SMS defence did not let go (the day's budget spent, or the country's
-- breaker open): why, for the operators.
ALTER TABLE messages ADD COLUMN resend_skipped text;
