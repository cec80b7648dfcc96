// Steppers: the − and + buttons beside a number box. Without JavaScript the box is typed into.
document.addEventListener("click", (event) => {
  const button = event.target.closest("button.step");
  if (!button) return;
  const input = button.parentElement.querySelector("input[type=number]");
  if (!input) return;
  const step = Number(button.dataset.step || 1);
  let value = (Number(input.value) || 0) + step;
  if (input.min !== "" && value < Number(input.min)) value = Number(input.min);
  if (input.max !== "" && value > Number(input.max)) value = Number(input.max);
  input.value = value;
  // The odds line listens for changes on the form.
  input.dispatchEvent(new Event("change", { bubbles: true }));
});
