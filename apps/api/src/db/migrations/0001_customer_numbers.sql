-- Customer numbers are shown to people; start them at 10001 instead of 1.
ALTER SEQUENCE users_customer_number_seq RESTART WITH 10001;
