import { startBackground } from '@/lib/background/main';

export default defineBackground(() => {
  startBackground();
});
